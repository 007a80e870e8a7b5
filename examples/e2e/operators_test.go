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

// startOperators runs the SLA operator in a manager until the test ends
// (the PaymentOrder operator has its own suite in ./payments).
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

// paymentOrder is a valid PaymentOrder in default (for the ClusterRole test).
func paymentOrder(name string, amount float64) *payments.PaymentOrder {
	return &payments.PaymentOrder{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"},
		Spec: payments.PaymentOrderSpec{
			Amount: amount, Currency: "EUR", PayerID: "DE89370400440532", PayeeID: "FR14200410100505",
			TenantID: "acme", Method: "sepa",
		},
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
