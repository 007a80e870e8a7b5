//go:build envtest

package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	payments "github.com/modelgen/modelgen/examples/payments/api/v1alpha1"
	paymentsctrl "github.com/modelgen/modelgen/examples/payments/controller"
	sla "github.com/modelgen/modelgen/examples/sla/api/v1"
	slactrl "github.com/modelgen/modelgen/examples/sla/controller"
)

func newScheme(t *testing.T) *runtime.Scheme {
	t.Helper()
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{clientgoscheme.AddToScheme, payments.AddToScheme, sla.AddToScheme} {
		if err := add(s); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func newClient(t *testing.T) client.Client {
	t.Helper()
	c, err := client.New(restConfig, client.Options{Scheme: newScheme(t)})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// startOperators runs both operators in a manager until the test ends.
func startOperators(t *testing.T) {
	t.Helper()
	skip := true
	mgr, err := ctrl.NewManager(restConfig, ctrl.Options{
		Scheme:                 newScheme(t),
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
		Controller:             config.Controller{SkipNameValidation: &skip},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := (&paymentsctrl.Reconciler{Client: mgr.GetClient()}).SetupWithManager(mgr); err != nil {
		t.Fatal(err)
	}
	if err := (&slactrl.Reconciler{Client: mgr.GetClient()}).SetupWithManager(mgr); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mgr.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("manager: %v", err)
		}
	})
}

func eventually(t *testing.T, what string, cond func() (bool, string)) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	last := ""
	for time.Now().Before(deadline) {
		ok, state := cond()
		if ok {
			return
		}
		last = state
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("timed out waiting for %s (last seen: %s)", what, last)
}

func paymentOrder(name string, amount float64) *payments.PaymentOrder {
	return &payments.PaymentOrder{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"},
		Spec: payments.PaymentOrderSpec{
			Amount: amount, Currency: "EUR", PayerID: "DE89370400440532", PayeeID: "FR14200410100505",
			TenantID: "acme", Method: "sepa",
		},
	}
}

func phaseOf(t *testing.T, c client.Client, name string) payments.PaymentPhase {
	var po payments.PaymentOrder
	if err := c.Get(context.Background(), types.NamespacedName{Namespace: "default", Name: name}, &po); err != nil {
		t.Fatal(err)
	}
	return po.Status.Phase
}

// TestPaymentOrderLifecycle: the operator drives an order from Submitted to
// Settled with the generated machine, and the API server refuses a status
// update that is not a transition of the machine.
func TestPaymentOrderLifecycle(t *testing.T) {
	startOperators(t)
	c := newClient(t)
	ctx := context.Background()
	if err := c.Create(ctx, paymentOrder("po-small", 120.50)); err != nil {
		t.Fatal(err)
	}
	eventually(t, "po-small to settle", func() (bool, string) {
		p := phaseOf(t, c, "po-small")
		return p == payments.PhaseSettled, string(p)
	})

	var po payments.PaymentOrder
	if err := c.Get(ctx, types.NamespacedName{Namespace: "default", Name: "po-small"}, &po); err != nil {
		t.Fatal(err)
	}
	illegal := po.DeepCopy()
	illegal.Status.Phase = payments.PhaseAuthorized
	err := c.Status().Update(ctx, illegal)
	if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), "Settled") || !strings.Contains(err.Error(), "Authorized") {
		t.Fatalf("Settled -> Authorized: want an Invalid error naming both states, got %v", err)
	}

	legal := po.DeepCopy()
	if err := legal.Status.Refund(); err != nil {
		t.Fatal(err)
	}
	if err := c.Status().Update(ctx, legal); err != nil {
		t.Fatalf("Settled -> Refunded (a transition of the machine) was rejected: %v", err)
	}
	if err := c.Status().Update(ctx, legal); err != nil {
		t.Fatalf("a no-op status update was rejected: %v", err)
	}
}

// TestPaymentOrderAboveLimitWaits: the operator does not authorize large
// orders on its own.
func TestPaymentOrderAboveLimitWaits(t *testing.T) {
	startOperators(t)
	c := newClient(t)
	if err := c.Create(context.Background(), paymentOrder("po-large", 50000)); err != nil {
		t.Fatal(err)
	}
	eventually(t, "po-large to wait for authorization", func() (bool, string) {
		var po payments.PaymentOrder
		if err := c.Get(context.Background(), types.NamespacedName{Namespace: "default", Name: "po-large"}, &po); err != nil {
			return false, err.Error()
		}
		for _, cond := range po.Status.Conditions {
			if cond.Reason == "AwaitingAuthorization" {
				return po.Status.Phase == payments.PhaseSubmitted, string(po.Status.Phase)
			}
		}
		return false, string(po.Status.Phase)
	})
}

// TestPhaseMustStartAtInitial: without an operator, a client cannot set a
// phase other than the machine's initial state.
func TestPhaseMustStartAtInitial(t *testing.T) {
	c := newClient(t)
	ctx := context.Background()
	po := paymentOrder("po-jump", 10)
	if err := c.Create(ctx, po); err != nil {
		t.Fatal(err)
	}
	po.Status.Phase = payments.PhaseSettled
	err := c.Status().Update(ctx, po)
	if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), "Submitted") {
		t.Fatalf("empty -> Settled: want an Invalid error naming the initial state, got %v", err)
	}
	po.Status.Phase = payments.PhaseSubmitted
	if err := c.Status().Update(ctx, po); err != nil {
		t.Fatalf("empty -> Submitted was rejected: %v", err)
	}
}

// TestPaymentOrderValidation: the spec's validate tags are enforced by the
// API server, including amount: 0 against gte=0.01.
func TestPaymentOrderValidation(t *testing.T) {
	c := newClient(t)
	ctx := context.Background()
	for name, mutate := range map[string]func(*payments.PaymentOrder){
		"amount":   func(p *payments.PaymentOrder) { p.Spec.Amount = 0.001 },
		"currency": func(p *payments.PaymentOrder) { p.Spec.Currency = "EURO" },
		"payeeId":  func(p *payments.PaymentOrder) { p.Spec.PayeeID = p.Spec.PayerID },
		"method":   func(p *payments.PaymentOrder) { p.Spec.Method = "cash" },
	} {
		po := paymentOrder("po-bad-"+strings.ToLower(name), 10)
		mutate(po)
		err := c.Create(ctx, po)
		if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: want an Invalid error naming the field, got %v", name, err)
		}
	}
	// amount: 0 as an integral JSON number, which minimum: 0.01 alone lets through
	err := create(t, paymentsGVR, "PaymentOrder", map[string]any{
		"amount": int64(0), "currency": "EUR", "payerId": "DE89370400440532", "payeeId": "FR14200410100505",
		"tenantId": "acme", "method": "sepa",
	})
	if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), "amount") {
		t.Errorf("amount: 0: want an Invalid error naming amount, got %v", err)
	}
}

// TestSLALifecycle: measured availability drives the SLA through active,
// degraded, breached and resolved; the server refuses leaving resolved.
func TestSLALifecycle(t *testing.T) {
	startOperators(t)
	c := newClient(t)
	ctx := context.Background()
	s := &sla.SLA{
		ObjectMeta: metav1.ObjectMeta{Name: "checkout", Namespace: "default"},
		Spec: sla.SLASpec{Service: "checkout", Customer: "acme", AvailabilityTarget: 99.5, WarningThreshold: 99.9,
			ResponseMinutes: 30, Contacts: []string{"oncall@example.com"}, Tier: "gold"},
	}
	if err := c.Create(ctx, s); err != nil {
		t.Fatal(err)
	}
	key := types.NamespacedName{Namespace: "default", Name: "checkout"}
	waitPhase := func(want sla.SLAPhase) {
		eventually(t, "SLA to be "+string(want), func() (bool, string) {
			var got sla.SLA
			if err := c.Get(ctx, key, &got); err != nil {
				return false, err.Error()
			}
			return got.Status.Phase == want, string(got.Status.Phase)
		})
	}
	annotate := func(k, v string) {
		var got sla.SLA
		if err := c.Get(ctx, key, &got); err != nil {
			t.Fatal(err)
		}
		patch := client.MergeFrom(got.DeepCopy())
		if got.Annotations == nil {
			got.Annotations = map[string]string{}
		}
		got.Annotations[k] = v
		if err := c.Patch(ctx, &got, patch); err != nil {
			t.Fatal(err)
		}
	}
	waitPhase(sla.SLAActive)
	annotate(slactrl.MeasuredAvailability, "99.7")
	waitPhase(sla.SLADegraded)
	annotate(slactrl.MeasuredAvailability, "99.95")
	waitPhase(sla.SLAActive)
	annotate(slactrl.MeasuredAvailability, "98")
	waitPhase(sla.SLABreached)
	annotate(slactrl.Resolved, "true")
	waitPhase(sla.SLAResolved)

	var got sla.SLA
	if err := c.Get(ctx, key, &got); err != nil {
		t.Fatal(err)
	}
	got.Status.Phase = sla.SLAActive
	err := c.Status().Update(ctx, &got)
	if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), "resolved") || !strings.Contains(err.Error(), "active") {
		t.Fatalf("resolved -> active: want an Invalid error naming both states, got %v", err)
	}
}
