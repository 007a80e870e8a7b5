package controller

import (
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"

	v1 "github.com/modelgen/modelgen/examples/payments/api/v1"
)

// TestRequestCarriesMinorUnits: the reconciler reads the storage version,
// v1, whose amount is already in minor units of its currency: the gateway
// is asked for exactly those units, in every currency (v1.MinorDigits'
// exponents 2, 0 and 3 alike), with no rounding on the way.
func TestRequestCarriesMinorUnits(t *testing.T) {
	for _, c := range []struct {
		units    int32
		currency string
	}{
		{12050, "EUR"}, {1, "USD"}, {1500, "JPY"}, {1234, "BHD"}, {1999, "EUR"}, {1000000000, "KWD"},
	} {
		po := &v1.PaymentOrder{}
		po.Spec.Amount = v1.Money{Units: c.units, Currency: c.currency}
		po.Spec.IdempotencyKey, po.Spec.PayerID, po.Spec.PayeeID = "invoice-1", "DE89370400440532", "FR14200410100505"
		req := (&Reconciler{}).request(po)
		if req.Amount != int64(c.units) || req.Currency != c.currency {
			t.Errorf("%d %s: the gateway is asked for %d %s", c.units, c.currency, req.Amount, req.Currency)
		}
		if req.Reference != "invoice-1" || req.Payer != "DE89370400440532" || req.Payee != "FR14200410100505" {
			t.Errorf("the request does not carry the order's references: %+v", req)
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
		phase                                v1.PaymentPhase
		refund                               bool
		problem                              string
		ready, authorized, settled, refunded bool
		readyReason                          string
	}{
		{v1.PhaseSubmitted, false, "", false, false, false, false, "Progressing"},
		{v1.PhaseAuthorized, false, "", false, true, false, false, "Progressing"},
		{v1.PhaseProcessed, false, "", false, true, false, false, "Progressing"},
		{v1.PhaseSettled, false, "", true, true, true, false, "Settled"},
		{v1.PhaseSettled, true, "", false, true, true, false, "Refunding"},
		{v1.PhaseSettled, true, ReasonGatewayUnavailable, false, true, true, false, ReasonGatewayUnavailable},
		{v1.PhaseRefunded, true, "", true, true, true, true, "Refunded"},
		{v1.PhaseSubmitted, false, ReasonDeclined, false, false, false, false, ReasonDeclined},
	} {
		po := &v1.PaymentOrder{}
		po.Generation = 3
		po.Status.Phase = c.phase
		if c.refund {
			po.Spec.Refund = &v1.RefundRequest{Reason: "returned"}
		}
		setConditions(po, c.problem)
		conds := po.Status.Conditions
		for typ, want := range map[string]bool{v1.ConditionReady: c.ready, v1.ConditionAuthorized: c.authorized,
			v1.ConditionSettled: c.settled, v1.ConditionRefunded: c.refunded} {
			if got := meta.IsStatusConditionTrue(conds, typ); got != want {
				t.Errorf("%s (refund %v, problem %q): %s is %v, want %v", c.phase, c.refund, c.problem, typ, got, want)
			}
			if cond := meta.FindStatusCondition(conds, typ); cond == nil || cond.ObservedGeneration != 3 {
				t.Errorf("%s: %s does not carry the generation: %+v", c.phase, typ, cond)
			}
		}
		if r := meta.FindStatusCondition(conds, v1.ConditionReady).Reason; r != c.readyReason {
			t.Errorf("%s (refund %v, problem %q): Ready reason %s, want %s", c.phase, c.refund, c.problem, r, c.readyReason)
		}
	}
}
