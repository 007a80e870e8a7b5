package controller

import (
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	v1 "github.com/modelgen/modelgen/examples/payments/api/v1"
)

// Reasons of the Ready condition while something stops the order.
const (
	ReasonGatewayUnavailable = "GatewayUnavailable"
	ReasonDeclined           = "Declined"
)

// setConditions writes the four conditions for the order's phase. problem,
// when not empty, is why the order is stuck (a Reason above); the Ready
// condition then carries it with status.lastError as the message.
func setConditions(po *v1.PaymentOrder, problem string) {
	st := &po.Status
	set := func(typ string, ok bool, reason, msg string) {
		s := metav1.ConditionFalse
		if ok {
			s = metav1.ConditionTrue
		}
		meta.SetStatusCondition(&st.Conditions, metav1.Condition{
			Type: typ, Status: s, Reason: reason, Message: msg, ObservedGeneration: po.Generation,
		})
	}
	authorized, settled, refunded := false, false, false
	switch st.Phase {
	case v1.PhaseRefunded:
		refunded = true
		fallthrough
	case v1.PhaseSettled:
		settled = true
		fallthrough
	case v1.PhaseAuthorized, v1.PhaseProcessed:
		authorized = true
	}
	refundWanted := po.Spec.Refund != nil

	switch {
	case authorized:
		set(v1.ConditionAuthorized, true, "Authorized", "the gateway authorized the amount")
	case st.Attempts > 1:
		set(v1.ConditionAuthorized, false, "Retrying", "the last settlement bounced; authorizing again")
	default:
		set(v1.ConditionAuthorized, false, "Pending", "waiting for the gateway to authorize")
	}
	if settled {
		set(v1.ConditionSettled, true, "Settled", "the money moved")
	} else {
		set(v1.ConditionSettled, false, "Pending", "not settled yet")
	}
	switch {
	case refunded:
		set(v1.ConditionRefunded, true, "Refunded", "the amount was paid back")
	case refundWanted:
		set(v1.ConditionRefunded, false, "Pending", "a refund is requested")
	default:
		set(v1.ConditionRefunded, false, "NotRequested", "no refund is requested")
	}

	switch {
	case problem != "":
		set(v1.ConditionReady, false, problem, st.LastError)
	case refunded:
		set(v1.ConditionReady, true, "Refunded", "the order is refunded")
	case settled && refundWanted:
		set(v1.ConditionReady, false, "Refunding", "a refund is pending")
	case settled:
		set(v1.ConditionReady, true, "Settled", "the order is settled")
	default:
		set(v1.ConditionReady, false, "Progressing", "phase is "+string(st.Phase))
	}
}
