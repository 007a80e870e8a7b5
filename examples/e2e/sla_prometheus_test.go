//go:build envtest

package e2e

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelgen/modelgen/internal/testkit"
)

// A real Prometheus for the SLA operator's tests: Debian's prometheus
// package (hack/prometheus.sh installs it), on a loopback port, on a
// backfilled availability history.

// period is one stretch of the history: from From (after t0) on, Ratio of
// the requests succeed.
type period struct {
	From  time.Duration
	Ratio float64
}

// slaHistory is the availability history of the walk: healthy, below 95%
// for 3 minutes, healthy again, below 90% for 6 minutes, healthy.
var slaHistory = []period{
	{0, 0.999},
	{10 * time.Minute, 0.93},
	{13 * time.Minute, 0.999},
	{20 * time.Minute, 0.85},
	{26 * time.Minute, 0.999},
}

// historyLength is how long the walk's history runs after t0.
const historyLength = 40 * time.Minute

// slaQuery is the contract's query over the backfilled counters.
const slaQuery = `sum(rate(sla_requests_total{service="checkout",code="ok"}[$window])) / sum(rate(sla_requests_total{service="checkout"}[$window]))`

// openMetrics writes length of the history as two counters sampled every
// 15s from t0: each sample adds 1000 requests, of which the ratio of the
// period the preceding 15s began in succeeded.
func openMetrics(t0 time.Time, history []period, length time.Duration) string {
	var b strings.Builder
	b.WriteString("# HELP sla_requests requests served by the service.\n# TYPE sla_requests counter\n")
	for _, code := range []string{"ok", "error"} {
		var n int64
		for at := time.Duration(0); at <= length; at += 15 * time.Second {
			fmt.Fprintf(&b, "sla_requests_total{service=\"checkout\",code=\"%s\"} %d %d\n", code, n, t0.Add(at).Unix())
			ok := int64(ratioAt(history, at)*1000 + 0.5)
			if code == "ok" {
				n += ok
			} else {
				n += 1000 - ok
			}
		}
	}
	b.WriteString("# EOF\n")
	return b.String()
}

func ratioAt(history []period, at time.Duration) float64 {
	r := history[0].Ratio
	for _, p := range history {
		if p.From <= at {
			r = p.Ratio
		}
	}
	return r
}

// prometheusBinaries finds prometheus and promtool, or skips the test
// saying why; with MODELGEN_REQUIRE_PROMETHEUS=1 (hack/test.sh sets it when
// hack/prometheus.sh succeeded) their absence fails it.
func prometheusBinaries(t *testing.T) (prometheus, promtool string) {
	t.Helper()
	prometheus, err1 := exec.LookPath("prometheus")
	promtool, err2 := exec.LookPath("promtool")
	if err1 == nil && err2 == nil {
		return prometheus, promtool
	}
	msg := "prometheus and promtool are not on PATH (hack/prometheus.sh installs them): this test needs a real Prometheus"
	if os.Getenv("MODELGEN_REQUIRE_PROMETHEUS") == "1" {
		t.Fatal(msg)
	}
	t.Skip("SKIP: " + msg)
	return "", ""
}

// startPrometheus backfills data (OpenMetrics text) with promtool, starts
// Prometheus on it on a free loopback port, waits until it is ready and
// stops it when the test ends. It returns the server's URL.
func startPrometheus(t *testing.T, data string) string {
	t.Helper()
	prometheus, promtool := prometheusBinaries(t)
	dir := t.TempDir()
	input := filepath.Join(dir, "history.om")
	if err := os.WriteFile(input, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	tsdb := filepath.Join(dir, "data")
	if out, err := exec.Command(promtool, "tsdb", "create-blocks-from", "openmetrics", input, tsdb).CombinedOutput(); err != nil {
		t.Fatalf("promtool tsdb create-blocks-from openmetrics: %v\n%s", err, out)
	}
	config := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(config, []byte("global:\n  scrape_interval: 1h\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	addr := testkit.FreeAddr(t)
	logFile, err := os.Create(filepath.Join(dir, "prometheus.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(prometheus, "--config.file="+config, "--storage.tsdb.path="+tsdb,
		"--storage.tsdb.retention.time=30d", "--web.listen-address="+addr)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(15 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
		logFile.Close()
	})
	url := "http://" + addr
	deadline := time.Now().Add(90 * time.Second)
	for {
		select {
		case err := <-exited:
			log, _ := os.ReadFile(logFile.Name())
			t.Fatalf("prometheus exited: %v\n%s", err, log)
		default:
		}
		if ready(url) {
			return url
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(logFile.Name())
			t.Fatalf("prometheus was not ready in 90s\n%s", log)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func ready(url string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url+"/-/ready", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}
