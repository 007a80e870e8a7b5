package controller

import (
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"

	v1alpha1 "github.com/modelgen/modelgen/examples/payments/api/v1alpha1"
)

func TestMinorUnits(t *testing.T) {
	for _, c := range []struct {
		amount   float64
		currency string
		want     int64
	}{
		{120.5, "EUR", 12050},
		{0.1 + 0.2, "EUR", 30}, // 0.30000000000000004
		{0.01, "USD", 1},
		{1000000, "EUR", 100000000},
		{1500, "JPY", 1500},
		{1.234, "BHD", 1234},
		{19.99, "EUR", 1999}, // 1998.9999999999998 before rounding
	} {
		if got := MinorUnits(c.amount, c.currency); got != c.want {
			t.Errorf("MinorUnits(%v, %s) = %d, want %d", c.amount, c.currency, got, c.want)
		}
	}
}

func TestKey(t *testing.T) {
	if got := Key("3f1c", "capture", 2); got != "3f1c/capture/2" {
		t.Errorf("Key = %q", got)
	}
}

// TestConditionsPerPhase: Ready is True only when no work is pending, and
// the other conditions follow the phase.
func TestConditionsPerPhase(t *testing.T) {
	for _, c := range []struct {
		phase                                v1alpha1.PaymentPhase
		refund                               bool
		problem                              string
		ready, authorized, settled, refunded bool
		readyReason                          string
	}{
		{v1alpha1.PhaseSubmitted, false, "", false, false, false, false, "Progressing"},
		{v1alpha1.PhaseAuthorized, false, "", false, true, false, false, "Progressing"},
		{v1alpha1.PhaseProcessed, false, "", false, true, false, false, "Progressing"},
		{v1alpha1.PhaseSettled, false, "", true, true, true, false, "Settled"},
		{v1alpha1.PhaseSettled, true, "", false, true, true, false, "Refunding"},
		{v1alpha1.PhaseSettled, true, ReasonGatewayUnavailable, false, true, true, false, ReasonGatewayUnavailable},
		{v1alpha1.PhaseRefunded, true, "", true, true, true, true, "Refunded"},
		{v1alpha1.PhaseSubmitted, false, ReasonDeclined, false, false, false, false, ReasonDeclined},
	} {
		po := &v1alpha1.PaymentOrder{}
		po.Generation = 3
		po.Status.Phase = c.phase
		if c.refund {
			po.Spec.Refund = &v1alpha1.RefundRequest{Reason: "returned"}
		}
		setConditions(po, c.problem)
		conds := po.Status.Conditions
		for typ, want := range map[string]bool{v1alpha1.ConditionReady: c.ready, v1alpha1.ConditionAuthorized: c.authorized,
			v1alpha1.ConditionSettled: c.settled, v1alpha1.ConditionRefunded: c.refunded} {
			if got := meta.IsStatusConditionTrue(conds, typ); got != want {
				t.Errorf("%s (refund %v, problem %q): %s is %v, want %v", c.phase, c.refund, c.problem, typ, got, want)
			}
			if cond := meta.FindStatusCondition(conds, typ); cond == nil || cond.ObservedGeneration != 3 {
				t.Errorf("%s: %s does not carry the generation: %+v", c.phase, typ, cond)
			}
		}
		if r := meta.FindStatusCondition(conds, v1alpha1.ConditionReady).Reason; r != c.readyReason {
			t.Errorf("%s (refund %v, problem %q): Ready reason %s, want %s", c.phase, c.refund, c.problem, r, c.readyReason)
		}
	}
}
