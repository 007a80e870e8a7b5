//go:build envtest

package e2e

import (
	"context"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/go-playground/validator/v10"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/kubernetes"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/webhook"

	payments "github.com/modelgen/modelgen/examples/payments/api/v1alpha1"
)

// webhookDir holds the generated ValidatingWebhookConfigurations.
func webhookDir() string {
	_, self, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(self), "..", "config", "webhook")
}

// installWebhooks installs the generated configurations with envtest, which
// points them at a local serving address with a fresh CA; they are removed
// when the test ends, so the other tests of the package run without them.
func installWebhooks(t *testing.T) *envtest.WebhookInstallOptions {
	t.Helper()
	opts := &envtest.WebhookInstallOptions{Paths: []string{webhookDir()}, MaxTime: time.Minute, PollInterval: 100 * time.Millisecond}
	if err := opts.Install(restConfig); err != nil {
		t.Fatalf("installing the webhook configurations: %v", err)
	}
	if len(opts.ValidatingWebhooks) == 0 {
		t.Fatalf("no ValidatingWebhookConfiguration under %s", webhookDir())
	}
	t.Cleanup(func() {
		cs := kubernetes.NewForConfigOrDie(restConfig)
		for _, c := range opts.ValidatingWebhooks {
			if err := cs.AdmissionregistrationV1().ValidatingWebhookConfigurations().Delete(context.Background(), c.Name, metav1.DeleteOptions{}); err != nil {
				t.Errorf("removing %s: %v", c.Name, err)
			}
		}
		_ = opts.Cleanup()
	})
	return opts
}

// serveWebhooks runs a manager whose webhook server serves the generated
// PaymentOrder webhook where envtest pointed the configuration; the
// returned function stops it (and waits until it stopped).
func serveWebhooks(t *testing.T, opts *envtest.WebhookInstallOptions) (stop func()) {
	t.Helper()
	mgr, err := ctrl.NewManager(restConfig, ctrl.Options{
		Scheme:                 newScheme(t),
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
		WebhookServer: webhook.NewServer(webhook.Options{
			Host: opts.LocalServingHost, Port: opts.LocalServingPort, CertDir: opts.LocalServingCertDir,
		}),
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := (&payments.PaymentOrderWebhook{Validate: validator.New()}).SetupWebhookWithManager(mgr); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mgr.Start(ctx) }()
	started := mgr.GetWebhookServer().StartedChecker()
	eventually(t, "the webhook server to serve", func() (bool, string) {
		err := started(nil)
		return err == nil, errString(err)
	})
	stopped := false
	stop = func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		if err := <-done; err != nil {
			t.Errorf("manager: %v", err)
		}
	}
	t.Cleanup(stop)
	return stop
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func validOrderSpec() map[string]any {
	return map[string]any{
		"amount": 120.5, "currency": "EUR", "payerId": "DE89370400440532", "payeeId": "FR76300060000112",
		"tenantId": "acme", "method": "sepa",
	}
}

func orderObject(spec map[string]any) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "payments.example.com/v1alpha1",
		"kind":       "PaymentOrder",
		"metadata":   map[string]any{"generateName": "wh-", "namespace": "default"},
		"spec":       spec,
	}}
}

func createOrder(spec map[string]any, opts metav1.CreateOptions) (*unstructured.Unstructured, error) {
	return dyn.Resource(paymentsGVR).Namespace("default").Create(context.Background(), orderObject(spec), opts)
}

func withCurrency(c string) map[string]any {
	s := validOrderSpec()
	s["currency"] = c
	return s
}

// TestWebhookOnAPIServer: a real kube-apiserver calls the generated
// PaymentOrder webhook (installed from config/webhook with failurePolicy
// Fail) and refuses what the CRD schema cannot: `currency: usd` passes the
// CRD (len=3, alpha) but not validator's uppercase and iso4217.
func TestWebhookOnAPIServer(t *testing.T) {
	dryRun := metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}}
	if _, err := createOrder(withCurrency("usd"), dryRun); err != nil {
		t.Fatalf("without the webhook the API server should accept currency usd (the CRD cannot say uppercase or iso4217), got %v", err)
	}
	opts := installWebhooks(t)
	stop := serveWebhooks(t, opts)

	// validator stops at a field's first failing check: usd fails uppercase
	refused := []struct {
		currency string
		says     string // in the message, besides spec.currency
	}{
		{"usd", "must satisfy: non-empty and all uppercase (uppercase)"},
		{"XXY", "must be an ISO 4217 currency code (iso4217)"},
		{"XXX-unknown", ""}, // the CRD's maxLength refuses it before the webhook
	}
	for _, c := range refused {
		_, err := createOrder(withCurrency(c.currency), metav1.CreateOptions{})
		if err == nil || !strings.Contains(err.Error(), "spec.currency") || !strings.Contains(err.Error(), c.says) {
			t.Errorf("currency %q: want a refusal naming spec.currency and saying %q, got %v", c.currency, c.says, err)
		}
	}
	if _, err := createOrder(withCurrency("usd"), metav1.CreateOptions{}); err == nil || !strings.Contains(err.Error(), `admission webhook "vpaymentorder-v1alpha1.payments.example.com" denied the request`) {
		t.Errorf("currency usd: want the generated webhook to deny it, got %v", err)
	}

	created, err := createOrder(validOrderSpec(), metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("a valid order was refused: %v", err)
	}
	spec := created.Object["spec"].(map[string]any)
	spec["tags"] = []any{"q3"}
	if _, err := dyn.Resource(paymentsGVR).Namespace("default").Update(context.Background(), created, metav1.UpdateOptions{}); err != nil {
		t.Errorf("a valid update was refused: %v", err)
	}

	// an outage: the webhook server stops; failurePolicy Fail refuses writes
	stop()
	_, err = createOrder(validOrderSpec(), metav1.CreateOptions{})
	if err == nil || !strings.Contains(err.Error(), "failed calling webhook") {
		t.Errorf("with the webhook server down a create went through or failed otherwise: %v", err)
	}
}
