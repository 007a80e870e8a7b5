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
	"k8s.io/client-go/kubernetes"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/webhook"

	slav1 "github.com/modelgen/modelgen/examples/sla/api/v1alpha1"

	"github.com/modelgen/modelgen/internal/testkit"
)

// TestSLAWebhookRefusesWhatTheCRDCannot: a real kube-apiserver, configured
// from the generated config/webhook manifest of SLAContract (failurePolicy
// Fail, installed with envtest), calls the generated SLAContractWebhook, as
// sla-operator --webhook serves it, and refuses a compensation currency the
// CRD cannot judge (uppercase, iso4217).
func TestSLAWebhookRefusesWhatTheCRDCannot(t *testing.T) {
	c := slaClient(t)
	ctx := context.Background()
	withCurrency := func(name, cur string) *slav1.SLAContract {
		s := checkoutContract(name)
		s.Spec.Compensation.Currency = cur
		return s
	}
	if err := c.Create(ctx, withCurrency("wh-before", "usd"), client.DryRunAll); err != nil {
		t.Fatalf("without the webhook the API server should admit currency usd, got %v", err)
	}

	_, self, _, _ := runtime.Caller(0)
	opts := &envtest.WebhookInstallOptions{
		Paths:   []string{filepath.Join(filepath.Dir(self), "..", "config", "webhook", "sla.example.com_v1alpha1_manifests.yaml")},
		MaxTime: time.Minute, PollInterval: 100 * time.Millisecond,
	}
	if err := opts.Install(restConfig); err != nil {
		t.Fatalf("installing the webhook configuration: %v", err)
	}
	t.Cleanup(func() {
		cs := kubernetes.NewForConfigOrDie(restConfig)
		for _, w := range opts.ValidatingWebhooks {
			if err := cs.AdmissionregistrationV1().ValidatingWebhookConfigurations().Delete(context.Background(), w.Name, metav1.DeleteOptions{}); err != nil {
				t.Errorf("removing %s: %v", w.Name, err)
			}
		}
		_ = opts.Cleanup()
	})
	mgr, err := ctrl.NewManager(restConfig, ctrl.Options{
		Scheme: slaScheme(t), Metrics: metricsserver.Options{BindAddress: "0"}, HealthProbeBindAddress: "0",
		WebhookServer: webhook.NewServer(webhook.Options{Host: opts.LocalServingHost, Port: opts.LocalServingPort, CertDir: opts.LocalServingCertDir}),
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := (&slav1.SLAContractWebhook{Validate: validator.New()}).SetupWebhookWithManager(mgr); err != nil {
		t.Fatal(err)
	}
	mctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- mgr.Start(mctx) }()
	stopped := false
	stop := func() {
		if !stopped {
			stopped = true
			cancel()
			if err := <-done; err != nil {
				t.Errorf("manager: %v", err)
			}
		}
	}
	t.Cleanup(stop)
	testkit.Eventually(t, "the webhook to answer", func() (bool, string) {
		err := c.Create(ctx, withCurrency("wh-ready", "EUR"), client.DryRunAll)
		return err == nil, errString(err)
	})

	for _, cc := range []struct{ currency, says string }{
		{"usd", `spec.compensation.currency: Invalid value: "usd": must satisfy: non-empty and all uppercase (uppercase)`},
		{"XXY", `spec.compensation.currency: Invalid value: "XXY": must be an ISO 4217 currency code (iso4217)`},
	} {
		err := c.Create(ctx, withCurrency("wh-"+strings.ToLower(cc.currency), cc.currency))
		if err == nil || !strings.Contains(err.Error(), `admission webhook "vslacontract-v1alpha1.sla.example.com" denied the request`) || !strings.Contains(err.Error(), cc.says) {
			t.Errorf("currency %q: want the webhook to refuse it saying %q, got %v", cc.currency, cc.says, err)
		}
	}
	good := withCurrency("wh-good", "EUR")
	if err := c.Create(ctx, good); err != nil {
		t.Fatalf("a valid contract was refused: %v", err)
	}
	t.Cleanup(func() { _ = c.Delete(context.Background(), good) })

	stop()
	err = c.Create(ctx, withCurrency("wh-outage", "EUR"))
	if err == nil || !strings.Contains(err.Error(), "failed calling webhook") {
		t.Errorf("with the webhook server down a valid create went through or failed otherwise: %v", err)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
