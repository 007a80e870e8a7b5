//go:build envtest

package payments_test

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"sigs.k8s.io/controller-runtime/pkg/client"

	v1alpha1 "github.com/modelgen/modelgen/examples/payments/api/v1alpha1"

	"github.com/modelgen/modelgen/internal/testkit"
)

// examplesDir is the examples module's root.
func examplesDir() string {
	_, self, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(self), "..", "..")
}

// readObjects reads every object of the YAML files under dir.
func readObjects(t *testing.T, dirs ...string) []*unstructured.Unstructured {
	t.Helper()
	var objs []*unstructured.Unstructured
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(examplesDir(), dir, "*.yaml"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no YAML in %s: %v", dir, err)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
			for {
				u := &unstructured.Unstructured{}
				if err := dec.Decode(&u.Object); errors.Is(err, io.EOF) {
					break
				} else if err != nil {
					t.Fatalf("%s: %v", f, err)
				}
				if len(u.Object) > 0 {
					objs = append(objs, u)
				}
			}
		}
	}
	return objs
}

// apply creates the objects (as cluster admin), namespaces first.
func apply(t *testing.T, objs []*unstructured.Unstructured) {
	t.Helper()
	slices.SortStableFunc(objs, func(a, b *unstructured.Unstructured) int {
		rank := func(u *unstructured.Unstructured) int {
			if u.GetKind() == "Namespace" {
				return 0
			}
			return 1
		}
		return cmp.Compare(rank(a), rank(b))
	})
	for _, o := range objs {
		if err := k8s.Create(context.Background(), o); err != nil {
			t.Fatalf("%s %s: %v", o.GetKind(), o.GetName(), err)
		}
	}
}

// kubeconfig writes a kubeconfig for the test's API server that acts as
// the user, through impersonation of the admin's credentials.
func kubeconfig(t *testing.T, user string, groups ...string) string {
	t.Helper()
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters["envtest"] = &clientcmdapi.Cluster{Server: restConfig.Host, CertificateAuthorityData: restConfig.CAData}
	cfg.AuthInfos["operator"] = &clientcmdapi.AuthInfo{
		ClientCertificateData: restConfig.CertData, ClientKeyData: restConfig.KeyData, Token: restConfig.BearerToken,
		Impersonate: user, ImpersonateGroups: groups,
	}
	cfg.Contexts["envtest"] = &clientcmdapi.Context{Cluster: "envtest", AuthInfo: "operator"}
	cfg.CurrentContext = "envtest"
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := clientcmd.WriteToFile(*cfg, path); err != nil {
		t.Fatal(err)
	}
	return path
}

var (
	buildOnce sync.Once
	binDir    string
	buildErr  error
)

// binaries builds the example's commands once per run.
func binaries(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "payments-bin-")
		if buildErr != nil {
			return
		}
		cmd := exec.Command("go", "build", "-o", binDir+string(filepath.Separator), "./payments/cmd/...")
		cmd.Dir = examplesDir()
		out, err := cmd.CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binDir
}

func httpGet(addr, path string) (int, string) {
	resp, err := http.Get("http://" + addr + path)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// TestDeployedOperatorSettlesSamples: the manifests under
// examples/payments/config are accepted by the API server; the operator
// binary, started with the Deployment's own arguments and a kubeconfig
// that acts as its ServiceAccount (so with exactly the RBAC the manifests
// and the generated ClusterRole grant), serves the generated webhook (which
// refuses currency usd), takes the samples to Settled and Refunded, serves
// its probes and metrics, and stops cleanly on SIGTERM.
func TestDeployedOperatorSettlesSamples(t *testing.T) {
	bin := binaries(t)
	apply(t, readObjects(t, "payments/config/manager", "payments/config/rbac"))
	apply(t, readObjects(t, "config/rbac")) // the generated ClusterRoles
	var dep appsv1.Deployment
	if err := k8s.Get(context.Background(), client.ObjectKey{Namespace: "payments-system", Name: "payments-operator"}, &dep); err != nil {
		t.Fatal(err)
	}

	// envtest points the generated webhook configuration at a local port
	// with a certificate of its own; the binary serves it there
	hooks := installWebhooks(t)
	metrics, probes, view := testkit.FreeAddr(t), testkit.FreeAddr(t), testkit.FreeAddr(t)
	args := []string{"--kubeconfig", kubeconfig(t, "system:serviceaccount:payments-system:payments-operator",
		"system:serviceaccounts", "system:serviceaccounts:payments-system", "system:authenticated")}
	for _, a := range dep.Spec.Template.Spec.Containers[0].Args {
		switch {
		case strings.HasPrefix(a, "--metrics-bind-address="):
			a = "--metrics-bind-address=" + metrics
		case strings.HasPrefix(a, "--health-probe-bind-address="):
			a = "--health-probe-bind-address=" + probes
		case strings.HasPrefix(a, "--tenant-view-bind-address="):
			a = "--tenant-view-bind-address=" + view
		case strings.HasPrefix(a, "--webhook-port="):
			a = fmt.Sprintf("--webhook-port=%d", hooks.LocalServingPort)
		case strings.HasPrefix(a, "--webhook-cert-dir="):
			a = "--webhook-cert-dir=" + hooks.LocalServingCertDir
		}
		args = append(args, a)
	}
	var logs bytes.Buffer
	cmd := exec.Command(filepath.Join(bin, "payments-operator"), args...)
	cmd.Stdout, cmd.Stderr = &logs, &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer func() {
		if cmd.ProcessState == nil {
			_ = cmd.Process.Kill()
			<-exited
		}
		if t.Failed() {
			t.Logf("operator output:\n%s", logs.String())
		}
	}()

	ns := namespace(t)
	testkit.Eventually(t, "the webhook to answer", func() (bool, string) {
		err := k8s.Create(context.Background(), orderWithCurrency(ns, "EUR"), client.DryRunAll)
		return err == nil, errText(err)
	})
	if err := k8s.Create(context.Background(), orderWithCurrency(ns, "usd")); err == nil || !strings.Contains(err.Error(), "spec.currency") {
		t.Errorf("the deployed webhook admitted currency usd: %v", err)
	}
	samples := readObjects(t, "payments/config/samples")
	for _, s := range samples {
		s.SetNamespace(ns)
	}
	apply(t, samples)
	want := map[string]v1alpha1.PaymentPhase{"invoice-2026-0042": v1alpha1.PhaseSettled, "invoice-2026-0043": v1alpha1.PhaseRefunded}
	for name, phase := range want {
		po := waitPhase(t, &v1alpha1.PaymentOrder{ObjectMeta: metav1ObjectMeta(ns, name)}, phase)
		if err := checkConditions(po); err != nil {
			t.Error(err)
		}
	}
	for _, path := range []string{"/healthz", "/readyz"} {
		if code, body := httpGet(probes, path); code != http.StatusOK {
			t.Errorf("%s: %d %s", path, code, body)
		}
	}
	if code, body := httpGet(metrics, "/metrics"); code != http.StatusOK || !strings.Contains(body, `paymentorder_transitions_total{from="Settled",to="Refunded"} 1`) {
		t.Errorf("/metrics: %d, no Settled -> Refunded transition in\n%s", code, grep(body, "paymentorder_"))
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("after SIGTERM: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Error("the operator did not stop within 20s of SIGTERM")
	}
}

func grep(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestLocalCommandSettlesSamples: the example README's one command
// (payments-local) starts its own control plane, settles the samples and
// exits 0.
func TestLocalCommandSettlesSamples(t *testing.T) {
	bin := binaries(t)
	cmd := exec.Command(filepath.Join(bin, "payments-local"),
		"--kubeconfig-out", filepath.Join(t.TempDir(), "kubeconfig"),
		"--metrics-bind-address", testkit.FreeAddr(t), "--health-probe-bind-address", testkit.FreeAddr(t), "--tenant-view-bind-address", testkit.FreeAddr(t),
		"--gateway-latency", "20ms")
	var out bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = io.Discard
	cmd.Dir = t.TempDir()
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("payments-local: %v\n%s", err, out.String())
		}
	case <-time.After(3 * time.Minute):
		_ = cmd.Process.Kill()
		t.Fatalf("payments-local did not finish in 3 minutes\n%s", out.String())
	}
	for _, want := range []string{"invoice-2026-0042", "Settled", "invoice-2026-0043", "Refunded"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	t.Logf("payments-local printed:\n%s", out.String())
}
