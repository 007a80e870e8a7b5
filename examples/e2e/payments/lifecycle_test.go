//go:build envtest

package payments_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	v1alpha1 "github.com/modelgen/modelgen/examples/payments/api/v1alpha1"
	"github.com/modelgen/modelgen/examples/payments/controller"
	"github.com/modelgen/modelgen/examples/payments/gateway"

	"github.com/modelgen/modelgen/internal/testkit"
)

const (
	transitions = "paymentorder_transitions_total"
	latency     = "paymentorder_gateway_request_duration_seconds"
)

func transitionCount(t *testing.T, from, to v1alpha1.PaymentPhase) float64 {
	return metric(t, transitions, map[string]string{"from": string(from), "to": string(to)})
}

// TestValidOrderSettles: a valid order goes Submitted, Authorized,
// Processed, Settled; every version the API server stored carries the
// conditions of its phase (Ready False while work is pending) and the
// generation it describes; each transition has its Event and is counted;
// the gateway saw one authorization, one charge and one settlement, each
// under the key of its step; a later spec change is observed.
func TestValidOrderSettles(t *testing.T) {
	ns := namespace(t)
	g := newGW(gateway.Config{})
	steps := [][2]v1alpha1.PaymentPhase{{"", "Submitted"}, {"Submitted", "Authorized"}, {"Authorized", "Processed"}, {"Processed", "Settled"}}
	before := map[[2]v1alpha1.PaymentPhase]float64{}
	for _, s := range steps {
		before[s] = transitionCount(t, s[0], s[1])
	}
	okCalls := func() (n float64) {
		for _, op := range []string{"authorize", "capture", "settle"} {
			n += metric(t, latency, map[string]string{"operation": op, "outcome": "ok"})
		}
		return n
	}
	callsBefore := okCalls()
	seen := watchOrders(t, ns)
	startOperator(t, testOptions(ns), g)

	po := create(t, order(ns, "small", "acme"))
	got := waitPhase(t, po, v1alpha1.PhaseSettled)

	// the final state
	if err := checkConditions(got); err != nil {
		t.Error(err)
	}
	if s, reason := condition(got, v1alpha1.ConditionReady); s != metav1.ConditionTrue || reason != "Settled" {
		t.Errorf("Ready is %s/%s, want True/Settled", s, reason)
	}
	st := got.Status
	if st.ObservedGeneration != got.Generation || st.Attempts != 1 || st.LastError != "" ||
		st.Gateway == nil || st.Gateway.AuthorizationID == "" || st.Gateway.ChargeID == "" {
		t.Errorf("status %+v, gateway %+v", st, st.Gateway)
	}
	if !controllerutil.ContainsFinalizer(got, v1alpha1.Finalizer) {
		t.Errorf("no finalizer: %v", got.Finalizers)
	}

	// every stored version on the way
	var phases []v1alpha1.PaymentPhase
	for _, v := range seen() {
		if v.UID != po.UID || v.Status.Phase == "" {
			continue
		}
		if len(phases) == 0 || phases[len(phases)-1] != v.Status.Phase {
			phases = append(phases, v.Status.Phase)
		}
		if err := checkConditions(&v); err != nil {
			t.Errorf("resourceVersion %s: %v", v.ResourceVersion, err)
		}
		if v.Status.ObservedGeneration != v.Generation {
			t.Errorf("resourceVersion %s: observedGeneration %d, generation %d", v.ResourceVersion, v.Status.ObservedGeneration, v.Generation)
		}
	}
	if want := []v1alpha1.PaymentPhase{"Submitted", "Authorized", "Processed", "Settled"}; !slices.Equal(phases, want) {
		t.Errorf("phases seen %v, want %v", phases, want)
	}

	waitEvents(t, po, "Submitted", "Authorized", "Processed", "Settled")
	for _, s := range steps {
		if d := transitionCount(t, s[0], s[1]) - before[s]; d != 1 {
			t.Errorf("%s{from=%q,to=%q} rose by %v, want 1", transitions, s[0], s[1], d)
		}
	}
	if d := okCalls() - callsBefore; d != 3 {
		t.Errorf("%s counted %v successful calls, want 3", latency, d)
	}
	if got, want := g.applied(po.UID), []string{"authorize authorize/1", "capture capture/1", "settle settle/1"}; !slices.Equal(got, want) {
		t.Errorf("gateway applied %v, want %v", got, want)
	}
	for _, op := range g.Applied() {
		if op.Kind == "authorize" && op.Amount != 12050 {
			t.Errorf("authorized %d minor units, want 12050", op.Amount)
		}
	}

	// a spec change without a transition is observed too
	cur := get(t, po)
	cur.Spec.Description = "invoice small, corrected"
	if err := k8s.Update(context.Background(), cur); err != nil {
		t.Fatal(err)
	}
	testkit.Eventually(t, "the new generation to be observed", func() (bool, string) {
		got = get(t, po)
		return got.Status.ObservedGeneration == got.Generation && checkConditions(got) == nil,
			fmt.Sprintf("generation %d, observed %d, %v", got.Generation, got.Status.ObservedGeneration, checkConditions(got))
	})
	if got.Status.Phase != v1alpha1.PhaseSettled {
		t.Errorf("phase %s after a description change", got.Status.Phase)
	}
}

// TestIllegalTransitionRefused: a status written directly, past the
// operator, may only move along the generated machine.
func TestIllegalTransitionRefused(t *testing.T) {
	ns := namespace(t)
	ctx := context.Background()
	po := create(t, order(ns, "jump", "acme"))

	po.Status.Phase = v1alpha1.PhaseSettled
	err := k8s.Status().Update(ctx, po)
	if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), "must start at Submitted") {
		t.Fatalf("empty -> Settled: want Invalid naming the initial state, got %v", err)
	}
	po.Status.Phase = v1alpha1.PhaseSubmitted
	if err := k8s.Status().Update(ctx, po); err != nil {
		t.Fatalf("empty -> Submitted refused: %v", err)
	}
	for _, to := range []v1alpha1.PaymentPhase{v1alpha1.PhaseProcessed, v1alpha1.PhaseSettled, v1alpha1.PhaseRefunded} {
		bad := po.DeepCopy()
		bad.Status.Phase = to
		err := k8s.Status().Update(ctx, bad)
		if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), "Submitted") || !strings.Contains(err.Error(), string(to)) {
			t.Errorf("Submitted -> %s: want Invalid naming both states, got %v", to, err)
		}
	}
	if err := po.Status.Authorize(); err != nil {
		t.Fatal(err)
	}
	if err := k8s.Status().Update(ctx, po); err != nil {
		t.Fatalf("Submitted -> Authorized (a transition of the machine) refused: %v", err)
	}
	back := po.DeepCopy()
	back.Status.Phase = v1alpha1.PhaseSubmitted
	if err := k8s.Status().Update(ctx, back); !apierrors.IsInvalid(err) {
		t.Errorf("Authorized -> Submitted: want Invalid, got %v", err)
	}
}

// TestRefundThroughSpec: the payer asks for a refund in the spec; the
// operator pays it back at the gateway, once, and moves the order to
// Refunded through the generated Refund transition.
func TestRefundThroughSpec(t *testing.T) {
	ns := namespace(t)
	g := newGW(gateway.Config{})
	seen := watchOrders(t, ns)
	startOperator(t, testOptions(ns), g)
	po := create(t, order(ns, "refund-me", "acme"))
	settled := waitPhase(t, po, v1alpha1.PhaseSettled)
	before := transitionCount(t, v1alpha1.PhaseSettled, v1alpha1.PhaseRefunded)

	patch := client.MergeFrom(settled.DeepCopy())
	settled.Spec.Refund = &v1alpha1.RefundRequest{Reason: "goods returned"}
	if err := k8s.Patch(context.Background(), settled, patch); err != nil {
		t.Fatal(err)
	}
	got := waitPhase(t, po, v1alpha1.PhaseRefunded)
	// every status the operator wrote fits its phase (the version the
	// patch stored still carries the status of the previous generation)
	for _, v := range seen() {
		if v.Status.Phase == "" || v.Status.ObservedGeneration != v.Generation {
			continue
		}
		if err := checkConditions(&v); err != nil {
			t.Errorf("resourceVersion %s: %v", v.ResourceVersion, err)
		}
	}
	if s, reason := condition(got, v1alpha1.ConditionRefunded); s != metav1.ConditionTrue || reason != "Refunded" {
		t.Errorf("Refunded is %s/%s", s, reason)
	}
	if s, reason := condition(got, v1alpha1.ConditionReady); s != metav1.ConditionTrue || reason != "Refunded" {
		t.Errorf("Ready is %s/%s", s, reason)
	}
	if got.Status.ObservedGeneration != got.Generation {
		t.Errorf("observedGeneration %d, generation %d", got.Status.ObservedGeneration, got.Generation)
	}
	refunds := 0
	for _, op := range g.Applied() {
		if op.Kind == "refund" {
			refunds++
			if op.Key != controller.Key(po.UID, "refund", 1) {
				t.Errorf("refund key %q", op.Key)
			}
			if got.Status.Gateway == nil || got.Status.Gateway.RefundID != op.ID {
				t.Errorf("status.gateway %+v, gateway refund %q", got.Status.Gateway, op.ID)
			}
		}
	}
	if refunds != 1 {
		t.Errorf("%d refunds at the gateway, want 1", refunds)
	}
	waitEvents(t, po, "Submitted", "Authorized", "Processed", "Settled", "Refunded")
	if d := transitionCount(t, v1alpha1.PhaseSettled, v1alpha1.PhaseRefunded) - before; d != 1 {
		t.Errorf("Settled -> Refunded counted %v times", d)
	}
	// a refund cannot be withdrawn
	patch = client.MergeFrom(got.DeepCopy())
	got.Spec.Refund = nil
	if err := k8s.Patch(context.Background(), got, patch); !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), "cannot be withdrawn") {
		t.Errorf("withdrawing the refund: want Invalid, got %v", err)
	}
}

// TestDeclinedOrderStops: the gateway declines the authorization (above its
// limit). The operator records the decline, with Ready False/Declined and
// a Warning Event, and stops: no retry calls the gateway again.
func TestDeclinedOrderStops(t *testing.T) {
	ns := namespace(t)
	g := newGW(gateway.Config{DeclineAbove: 100000}) // 1000.00 EUR
	startOperator(t, testOptions(ns), g)
	po := order(ns, "too-big", "acme")
	po.Spec.Amount = 5000
	create(t, po)
	var got *v1alpha1.PaymentOrder
	testkit.Eventually(t, "the decline to be recorded", func() (bool, string) {
		got = get(t, po)
		_, reason := condition(got, v1alpha1.ConditionReady)
		return reason == "Declined", reason
	})
	if got.Status.Phase != v1alpha1.PhaseSubmitted || !strings.Contains(got.Status.LastError, "limit_exceeded") {
		t.Errorf("phase %s, lastError %q", got.Status.Phase, got.Status.LastError)
	}
	if err := checkConditions(got); err != nil {
		t.Error(err)
	}
	waitEvents(t, po, "Submitted", "Declined")
	time.Sleep(time.Second) // backoff would have retried several times by now
	if n := len(g.callsTo(controller.Key(po.UID, "authorize", 1))); n != 1 {
		t.Errorf("a declined authorization was tried %d times, want 1", n)
	}
}
