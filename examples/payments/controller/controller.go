// Package controller is the PaymentOrder operator: it walks each order
// through its lifecycle with the state machine generated from the `state`
// tag on PaymentOrderStatus.Phase. The same machine, compiled into CEL
// transition rules in the CRD, makes the API server refuse any status
// update that skips a step, whoever sends it.
package controller

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrlruntime "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	v1alpha1 "github.com/modelgen/modelgen/examples/payments/api/v1alpha1"
)

// AuthorizationLimit is the largest amount the operator authorizes on its
// own; larger orders wait in Submitted for a person.
const AuthorizationLimit = 10000

// Reconciler advances PaymentOrders one transition per reconcile.
type Reconciler struct {
	Client client.Client
}

// Reconcile moves an order one step: an empty phase starts at the initial
// state, then Authorize, Process and Settle fire in turn.
func (r *Reconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	var po v1alpha1.PaymentOrder
	if err := r.Client.Get(ctx, req.NamespacedName, &po); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	st := &po.Status
	if st.Phase == v1alpha1.PhaseSubmitted && po.Spec.Amount > AuthorizationLimit {
		msg := fmt.Sprintf("amount %.2f is above the authorization limit %d: waiting for a person to authorize", po.Spec.Amount, AuthorizationLimit)
		if c := meta.FindStatusCondition(st.Conditions, "Progressing"); c != nil && c.Message == msg {
			return reconcile.Result{}, nil
		}
		setCondition(st, po.Generation, metav1.ConditionFalse, "AwaitingAuthorization", msg)
		return reconcile.Result{}, r.update(ctx, &po)
	}
	step, err := next(st)
	if err != nil {
		// a *statemachine.TransitionError: the machine has no such step
		return reconcile.Result{}, reconcile.TerminalError(err)
	}
	if step == "" {
		return reconcile.Result{}, nil
	}
	setCondition(st, po.Generation, metav1.ConditionTrue, step, "phase is "+string(st.Phase))
	st.ObservedGeneration = po.Generation
	return reconcile.Result{}, r.update(ctx, &po)
}

// next fires the event that follows the current phase; it returns the
// event's name, or "" when the order is done.
func next(st *v1alpha1.PaymentOrderStatus) (string, error) {
	switch st.Phase {
	case "":
		st.Phase = v1alpha1.PaymentPhaseMachine().Initial()
		return "Submitted", nil
	case v1alpha1.PhaseSubmitted:
		return "Authorize", st.Authorize()
	case v1alpha1.PhaseAuthorized:
		return "Process", st.Process()
	case v1alpha1.PhaseProcessed:
		return "Settle", st.Settle()
	}
	return "", nil
}

func setCondition(st *v1alpha1.PaymentOrderStatus, gen int64, status metav1.ConditionStatus, reason, msg string) {
	meta.SetStatusCondition(&st.Conditions, metav1.Condition{Type: "Progressing", Status: status, Reason: reason, Message: msg, ObservedGeneration: gen})
}

func (r *Reconciler) update(ctx context.Context, po *v1alpha1.PaymentOrder) error {
	err := r.Client.Status().Update(ctx, po)
	if apierrors.IsConflict(err) {
		return nil // a newer version is on its way; it is reconciled again
	}
	return err
}

// SetupWithManager registers the reconciler.
func (r *Reconciler) SetupWithManager(mgr ctrlruntime.Manager) error {
	return ctrlruntime.NewControllerManagedBy(mgr).For(&v1alpha1.PaymentOrder{}).Named("paymentorder").Complete(r)
}
