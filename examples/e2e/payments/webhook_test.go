//go:build envtest

package payments_test

import (
	"context"
	"encoding/json"
	"math"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/kubernetes"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/modelgen/modelgen/agree"
	paymentsv1 "github.com/modelgen/modelgen/examples/payments/api/v1"
	v1alpha1 "github.com/modelgen/modelgen/examples/payments/api/v1alpha1"
	"github.com/modelgen/modelgen/examples/payments/gateway"

	"github.com/modelgen/modelgen/internal/testkit"
)

// webhookDir is the generated ValidatingWebhookConfiguration of PaymentOrder.
func webhookDir() string {
	_, self, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(self), "..", "..", "config", "webhook", "payments.example.com_v1alpha1_manifests.yaml")
}

// installWebhooks installs the generated configurations with envtest, which
// points them at a local serving address with a fresh CA. They are removed
// when the test ends: the other tests run without a webhook.
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

func orderWithCurrency(ns, currency string) *unstructured.Unstructured {
	spec := validSpec()
	spec["currency"] = currency
	return unstructuredOrder(ns, spec)
}

// TestWebhookRefusesWhatTheCRDCannot: the operator, assembled as its main
// does with --webhook, serves the generated PaymentOrder webhook; a real
// kube-apiserver, configured from config/webhook (failurePolicy Fail), calls
// it and refuses what the CRD schema cannot: `currency: usd` passes the CRD
// (len=3, alpha) but not validator's uppercase, `XXY` not iso4217.
func TestWebhookRefusesWhatTheCRDCannot(t *testing.T) {
	ns := namespace(t)
	ctx := context.Background()
	if err := k8s.Create(ctx, orderWithCurrency(ns, "usd"), client.DryRunAll); err != nil {
		t.Fatalf("without the webhook the API server should admit currency usd (no CRD schema says uppercase or iso4217), got %v", err)
	}
	hooks := installWebhooks(t)
	o := testOptions(ns)
	o.Webhook, o.WebhookHost, o.WebhookPort, o.WebhookCertDir = true, hooks.LocalServingHost, hooks.LocalServingPort, hooks.LocalServingCertDir
	stop := startOperator(t, o, gateway.NewSimulated(o.Gateway))
	testkit.Eventually(t, "the webhook to answer", func() (bool, string) {
		err := k8s.Create(ctx, orderWithCurrency(ns, "EUR"), client.DryRunAll)
		return err == nil, errText(err)
	})

	// validator stops at a field's first failing check: usd fails uppercase
	for _, c := range []struct{ currency, says string }{
		{"usd", `admission webhook "vpaymentorder-v1alpha1.payments.example.com" denied the request`},
		{"usd", "spec.currency: Invalid value: \"usd\": must satisfy: non-empty and all uppercase (uppercase)"},
		{"XXY", "spec.currency: Invalid value: \"XXY\": must be an ISO 4217 currency code (iso4217)"},
		{"XXX-unknown", "spec.currency"}, // the CRD's maxLength refuses it before the webhook
	} {
		err := k8s.Create(ctx, orderWithCurrency(ns, c.currency))
		if err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("currency %q: want a refusal saying %q, got %v", c.currency, c.says, err)
		}
	}

	order := unstructuredOrder(ns, validSpec())
	if err := k8s.Create(ctx, order); err != nil {
		t.Fatalf("a valid order was refused: %v", err)
	}
	testkit.Eventually(t, "a valid update to be admitted", func() (bool, string) {
		var cur unstructured.Unstructured
		cur.SetGroupVersionKind(order.GroupVersionKind())
		err := k8s.Get(ctx, client.ObjectKeyFromObject(order), &cur)
		if err == nil {
			cur.Object["spec"].(map[string]any)["description"] = "invoice 42"
			err = k8s.Update(ctx, &cur)
		}
		return err == nil, errText(err)
	})

	// an outage: the webhook server stops, and failurePolicy Fail refuses writes
	stop()
	err := k8s.Create(ctx, unstructuredOrder(ns, validSpec()))
	if err == nil || !strings.Contains(err.Error(), "failed calling webhook") {
		t.Errorf("with the webhook server down a valid create went through or failed otherwise: %v", err)
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestServerJudgeMatchesTheAPIServer: the agreement harness's server side
// (the CRD's create path, then the generated webhook on the admitted
// object, in process) gives the verdict of a real kube-apiserver calling
// the served webhook, on every boundary document of PaymentOrder's spec,
// sent byte for byte as dry-run creates.
func TestServerJudgeMatchesTheAPIServer(t *testing.T) {
	h, err := agree.New(agree.Config{
		Dir:     filepath.Join("..", "..", "payments", "api", "v1alpha1"),
		Types:   []reflect.Type{reflect.TypeOf(v1alpha1.PaymentOrder{})},
		OpenAPI: "openapi.yaml",
		CRDs:    []string{"../../../config/crd/bases/payments.example.com_paymentorders.yaml"},
	})
	if err != nil {
		t.Fatal(err)
	}
	hooks := installWebhooks(t)
	o := testOptions(namespace(t))
	o.Webhook, o.WebhookHost, o.WebhookPort, o.WebhookCertDir = true, hooks.LocalServingHost, hooks.LocalServingPort, hooks.LocalServingCertDir
	startOperator(t, o, gateway.NewSimulated(o.Gateway))
	rc := kubernetes.NewForConfigOrDie(restConfig).CoreV1().RESTClient()
	// converted is true when the server refused the document in the
	// conversion to the storage version v1 (after every check the harness
	// models: the conversion refuses an amount that is no whole number of
	// minor units, TestPaymentOrderConversion)
	send := func(c agree.Case) (accepted, converted bool, err error) {
		err = rc.Post().AbsPath(c.Path).Param("dryRun", "All").
			SetHeader("Content-Type", "application/json").Body(c.Doc).Do(context.Background()).Error()
		switch {
		case err == nil:
			return true, false, nil
		case apierrors.IsInvalid(err) || apierrors.IsBadRequest(err):
			return false, false, nil
		case apierrors.IsInternalError(err) && strings.Contains(err.Error(), "conversion webhook for payments.example.com/v1alpha1") &&
			strings.Contains(err.Error(), "is not a whole number of minor units"):
			return false, true, nil
		}
		return false, false, err
	}
	testkit.Eventually(t, "the webhook to answer", func() (bool, string) {
		_, _, err := send(h.Cases()[0])
		return err == nil, errText(err)
	})
	// A create through the main resource drops status (the status
	// subresource): the in-process judges do not model that, so probes of
	// status fields are left out here.
	var cases []agree.Case
	for _, c := range h.Cases() {
		if !strings.HasPrefix(c.Field, "status") {
			cases = append(cases, c)
		}
	}
	mismatches, webhookRefused, conversionRefused := 0, 0, 0
	for _, c := range cases {
		j := h.Judge(c)
		got, converted, err := send(c)
		if err != nil {
			t.Fatalf("%s: unexpected answer: %v", c.Doc, err)
		}
		if j.CRD.Accept && !j.Server.Accept {
			webhookRefused++
		}
		if converted {
			// what the harness admits, refused by the conversion alone,
			// and only for an amount that is no whole number of minor units
			conversionRefused++
			if !j.Server.Accept || wholeMinorUnits(t, c.Doc) {
				mismatches++
				t.Errorf("the conversion refused a document the harness says %s\n%s probe %q\n\t%s", j.Server, c.Field, c.Probe, c.Doc)
			}
			continue
		}
		if got != j.Server.Accept {
			mismatches++
			if mismatches <= 20 {
				t.Errorf("the API server says accept=%v, the harness's server side says %s\n%s probe %q\n\t%s", got, j.Server, c.Field, c.Probe, c.Doc)
			}
		}
	}
	t.Logf("%d documents sent, %d refused by the webhook only, %d by the conversion to v1 only, %d verdicts differ from the harness", len(cases), webhookRefused, conversionRefused, mismatches)
	if webhookRefused == 0 {
		t.Error("no document was refused by the webhook alone: the test no longer exercises it")
	}
	want := testkit.Cited(t, filepath.Join(testkit.Root(t), "docs", "agreement.md"),
		`as\s+a\s+dry-run\s+create,\s+([\d,]+)\s+of\s+them\s+\(the\s+test\s+asserts\s+the\s+figures\),\s+([\d,]+)\s+refused\s+by\s+the\s+webhook\s+alone,\s+([\d,]+)\s+by\s+the\s+conversion\s+to\s+v1\s+alone[^,]*,\s+0`)
	if len(cases) != want[0] || webhookRefused != want[1] || conversionRefused != want[2] {
		t.Errorf("%d documents sent, %d refused by the webhook alone, %d by the conversion alone; docs/agreement.md cites %d, %d and %d", len(cases), webhookRefused, conversionRefused, want[0], want[1], want[2])
	}
}

// wholeMinorUnits reports whether the order's amount is a whole number of
// minor units of its currency (v1.MinorDigits).
func wholeMinorUnits(t *testing.T, doc []byte) bool {
	t.Helper()
	var o struct {
		Spec struct {
			Amount   float64 `json:"amount"`
			Currency string  `json:"currency"`
		} `json:"spec"`
	}
	if err := json.Unmarshal(doc, &o); err != nil {
		t.Fatal(err)
	}
	scale := math.Pow10(paymentsv1.MinorDigits(o.Spec.Currency))
	return math.Round(o.Spec.Amount*scale)/scale == o.Spec.Amount
}
