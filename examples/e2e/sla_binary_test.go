//go:build envtest

package e2e

import (
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	slav1 "github.com/modelgen/modelgen/examples/sla/api/v1alpha1"

	"github.com/modelgen/modelgen/internal/testkit"
)

// TestSLAOperatorBinary runs the sla-operator command as the README does:
// built with go build, on a kubeconfig, against a real Prometheus whose
// history reaches the present, with leader election and probes. A contract
// becomes active on the wall clock, /readyz answers, and SIGTERM stops it
// with exit status 0.
func TestSLAOperatorBinary(t *testing.T) {
	now := time.Now().UTC()
	t0 := now.Truncate(time.Minute).Add(-30 * time.Minute)
	url := startPrometheus(t, openMetrics(t0, []period{{0, 0.999}}, 40*time.Minute)) // until 10 minutes from now

	dir := t.TempDir()
	bin := filepath.Join(dir, "sla-operator")
	if out, err := exec.Command("go", "build", "-o", bin, "../sla/cmd/sla-operator").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	user, err := testEnv.AddUser(envtest.User{Name: "sla-binary", Groups: []string{"system:masters"}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	kubeconfig, err := user.KubeConfig()
	if err != nil {
		t.Fatal(err)
	}
	kubeconfigFile := filepath.Join(dir, "kubeconfig")
	if err := os.WriteFile(kubeconfigFile, kubeconfig, 0o600); err != nil {
		t.Fatal(err)
	}
	probes := testkit.FreeAddr(t)
	logFile, err := os.Create(filepath.Join(dir, "operator.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--kubeconfig="+kubeconfigFile, "--prometheus-url="+url, "--poll-interval=5s",
		"--metrics-bind-address=0", "--health-probe-bind-address="+probes,
		"--leader-elect", "--leader-election-namespace=default")
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stopped := false
	t.Cleanup(func() {
		if !stopped {
			_ = cmd.Process.Kill()
			<-exited
		}
		logFile.Close()
		if t.Failed() {
			log, _ := os.ReadFile(logFile.Name())
			t.Logf("operator log:\n%s", log)
		}
	})

	testkit.Eventually(t, "/readyz to answer 200", func() (bool, string) {
		resp, err := http.Get("http://" + probes + "/readyz")
		if err != nil {
			return false, err.Error()
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK, resp.Status
	})

	c := slaClient(t)
	ctx := context.Background()
	contract := checkoutContract("checkout-binary")
	if err := c.Create(ctx, contract); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Delete(ctx, contract) })
	w := &slaWatch{t: t, c: c, key: client.ObjectKeyFromObject(contract), t0: t0}
	s := w.until("active on the wall clock", func(s *slav1.SLAContract) bool { return s.Status.Phase == slav1.SLAActive })
	if m := s.Status.Measurement; m == nil || m.AvailabilityPercent != 99.9 || m.Time.Time.Before(now.Add(-time.Minute)) {
		t.Fatalf("active: %s", w.describe(s))
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	stopped = true
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("sla-operator exited with %v after SIGTERM", err)
		}
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		<-exited
		t.Fatal("sla-operator did not stop within 30s of SIGTERM")
	}
}
