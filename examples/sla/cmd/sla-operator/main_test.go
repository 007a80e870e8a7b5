package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestFlags(t *testing.T) {
	o, err := parse([]string{"--prometheus-url=http://prom:9090", "--prometheus-timeout=3s", "--poll-interval=20s",
		"--leader-elect", "--leader-election-namespace=sla-system", "--health-probe-bind-address=:9081"}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	if o.prometheusURL != "http://prom:9090" || o.prometheusTimeout != 3*time.Second || o.pollInterval != 20*time.Second ||
		!o.leaderElect || o.leaderElectionNS != "sla-system" || o.probeAddr != ":9081" || o.metricsAddr != ":8080" {
		t.Fatalf("options %+v", o)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{{"--no-such-flag"}, {"extra"}} {
		var stderr bytes.Buffer
		if code := run(args, &stderr); code != 2 || stderr.Len() == 0 {
			t.Errorf("%q: exit %d, stderr %q", args, code, stderr.String())
		}
	}
	var stderr bytes.Buffer
	if code := run([]string{"-h"}, &stderr); code != 0 || !strings.Contains(stderr.String(), "-prometheus-url") {
		t.Errorf("-h: exit %d, stderr %q", code, stderr.String())
	}
}

func TestBadPrometheusURLFailsBeforeConnecting(t *testing.T) {
	var stderr bytes.Buffer
	if code := run([]string{"--prometheus-url=localhost:9090"}, &stderr); code != 1 || !strings.Contains(stderr.String(), "want a URL") {
		t.Errorf("exit %d, stderr %q", code, stderr.String())
	}
}
