// Package controller is the PaymentOrder operator's reconciler. It walks
// each order through the lifecycle declared by the `state` tag on
// PaymentOrderStatus.Phase, firing only the generated typed transitions
// (Authorize, Process, Settle, Retry, Refund); the same machine, compiled
// into CEL rules in the CRD, makes the API server refuse any status write
// that skips a step, whoever sends it.
//
// Each step calls the payment gateway first, with an idempotency key from
// the order's UID, the step and the attempt (Key), and a deadline; then it
// records the gateway's answer and the transition in one status write.
// A step repeated after a crash, a lost reply or a duplicate reconcile asks
// the gateway again with the same key and gets the same answer, so nothing
// is charged twice.
package controller

import (
	"context"
	"errors"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/events"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/event"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	v1 "github.com/modelgen/modelgen/examples/payments/api/v1"
	"github.com/modelgen/modelgen/examples/payments/gateway"
)

// Reconciler drives PaymentOrders.
type Reconciler struct {
	// Client reads from the manager's cache and writes to the API server.
	Client client.Client
	// APIReader reads from the API server itself: after a 409 Conflict the
	// cache may not have the newer object yet.
	APIReader client.Reader
	Gateway   gateway.Gateway
	Recorder  events.EventRecorder
	// GatewayTimeout bounds every gateway call.
	GatewayTimeout time.Duration
}

// maxStepsPerReconcile bounds the steps one reconcile takes; the lifecycle
// has at most six.
const maxStepsPerReconcile = 8

// maxConflictRetries bounds the re-reads after 409 Conflicts in one write.
const maxConflictRetries = 5

// Key is the idempotency key of one gateway call: the order's UID, the step
// and, for the steps a retry repeats, the attempt.
func Key(uid types.UID, step string, attempt int32) string {
	return fmt.Sprintf("%s/%s/%d", uid, step, attempt)
}

// The operator's role (payments/config/rbac/runtime_role.yaml, generated
// by modelgen from these markers): it reads and patches orders (the
// finalizer lives in metadata), writes their status, removes its finalizer
// and records an Event per transition.
//
// +kubebuilder:rbac:groups=payments.example.com,resources=paymentorders,verbs=get;list;watch;patch
// +kubebuilder:rbac:groups=payments.example.com,resources=paymentorders/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=payments.example.com,resources=paymentorders/finalizers,verbs=update
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch

// Reconcile takes the order as far as it can go now: each step is one
// gateway call and one status write. A gateway error returns an error, so
// the workqueue retries with exponential backoff.
func (r *Reconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	po := &v1.PaymentOrder{}
	if err := r.Client.Get(ctx, req.NamespacedName, po); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	if !po.DeletionTimestamp.IsZero() {
		return reconcile.Result{}, r.finalize(ctx, po)
	}
	if err := r.ensureFinalizer(ctx, po); err != nil {
		return reconcile.Result{}, err
	}
	for range maxStepsPerReconcile {
		moved, err := r.step(ctx, po)
		if err != nil {
			return reconcile.Result{}, err
		}
		if !moved {
			break
		}
	}
	return reconcile.Result{}, r.observe(ctx, po)
}

// step takes the next step of the lifecycle; it reports whether the phase
// moved.
func (r *Reconciler) step(ctx context.Context, po *v1.PaymentOrder) (bool, error) {
	switch po.Status.Phase {
	case "":
		return r.accept(ctx, po)
	case v1.PhaseSubmitted:
		return r.authorize(ctx, po)
	case v1.PhaseAuthorized:
		return r.capture(ctx, po)
	case v1.PhaseProcessed:
		return r.settle(ctx, po)
	case v1.PhaseSettled:
		return r.refund(ctx, po)
	}
	return false, nil
}

// accept starts a new order at the machine's initial state.
func (r *Reconciler) accept(ctx context.Context, po *v1.PaymentOrder) (bool, error) {
	return r.commit(ctx, po, func(p *v1.PaymentOrder) error {
		if p.Status.Phase != "" {
			return errMoved
		}
		p.Status.Phase = v1.PaymentPhaseMachine().Initial()
		p.Status.Attempts = 1
		return nil
	})
}

// authorize holds the amount at the gateway: Submitted -> Authorized.
func (r *Reconciler) authorize(ctx context.Context, po *v1.PaymentOrder) (bool, error) {
	req := r.request(po)
	req.Key = Key(po.UID, "authorize", po.Status.Attempts)
	id, err := call(ctx, r, "authorize", func(ctx context.Context) (string, error) { return r.Gateway.Authorize(ctx, req) })
	if err != nil {
		return false, r.failed(ctx, po, err)
	}
	return r.commit(ctx, po, func(p *v1.PaymentOrder) error {
		p.Status.Gateway = &v1.GatewayReference{AuthorizationID: id}
		return p.Status.Authorize()
	})
}

// capture charges the authorization: Authorized -> Processed.
func (r *Reconciler) capture(ctx context.Context, po *v1.PaymentOrder) (bool, error) {
	req := r.request(po)
	req.Key, req.ID = Key(po.UID, "capture", po.Status.Attempts), gatewayRef(po).AuthorizationID
	id, err := call(ctx, r, "capture", func(ctx context.Context) (string, error) { return r.Gateway.Capture(ctx, req) })
	if err != nil {
		return false, r.failed(ctx, po, err)
	}
	return r.commit(ctx, po, func(p *v1.PaymentOrder) error {
		ref := gatewayRef(p)
		ref.ChargeID = id
		p.Status.Gateway = &ref
		return p.Status.Process()
	})
}

// settle waits for the clearing: Processed -> Settled, or Processed ->
// Submitted (Retry) with a new attempt when the clearing bounced the charge.
func (r *Reconciler) settle(ctx context.Context, po *v1.PaymentOrder) (bool, error) {
	req := r.request(po)
	req.Key, req.ID = Key(po.UID, "settle", po.Status.Attempts), gatewayRef(po).ChargeID
	_, err := call(ctx, r, "settle", func(ctx context.Context) (string, error) { return "", r.Gateway.Settle(ctx, req) })
	if gateway.IsDeclined(err) {
		// the clearing bounced the charge: start again, with new keys
		return r.commit(ctx, po, func(p *v1.PaymentOrder) error {
			if err := p.Status.Retry(); err != nil {
				return err
			}
			p.Status.Attempts++
			p.Status.Gateway = nil
			p.Status.LastError = err.Error()
			return nil
		})
	}
	if err != nil {
		return false, r.failed(ctx, po, err)
	}
	return r.commit(ctx, po, func(p *v1.PaymentOrder) error { return p.Status.Settle() })
}

// refund pays a settled order back once the spec asks: Settled -> Refunded.
func (r *Reconciler) refund(ctx context.Context, po *v1.PaymentOrder) (bool, error) {
	if po.Spec.Refund == nil {
		return false, nil
	}
	req := r.request(po)
	req.Key, req.ID = Key(po.UID, "refund", 1), gatewayRef(po).ChargeID
	id, err := call(ctx, r, "refund", func(ctx context.Context) (string, error) { return r.Gateway.Refund(ctx, req) })
	if err != nil {
		return false, r.failed(ctx, po, err)
	}
	return r.commit(ctx, po, func(p *v1.PaymentOrder) error {
		ref := gatewayRef(p)
		ref.RefundID = id
		p.Status.Gateway = &ref
		return p.Status.Refund()
	})
}

// errMoved stops a write whose order was moved on by someone else.
var errMoved = errors.New("the order moved on")

// commit applies change to the order and writes the status subresource.
// On a 409 Conflict it reads the order again from the API server and
// applies change to that: the typed transition in change fails when the
// phase moved on meanwhile, and then nothing is written, so a newer status
// is never overwritten. It reports whether it wrote.
func (r *Reconciler) commit(ctx context.Context, po *v1.PaymentOrder, change func(*v1.PaymentOrder) error) (bool, error) {
	cur := po
	for range maxConflictRetries {
		next := cur.DeepCopy()
		from := next.Status.Phase
		next.Status.LastError = ""
		if err := change(next); err != nil {
			log.FromContext(ctx).Info("not writing: the order moved on", "phase", from, "reason", err.Error())
			*po = *cur
			return false, nil
		}
		next.Status.ObservedGeneration = next.Generation
		setConditions(next, "")
		err := r.Client.Status().Update(ctx, next)
		if err == nil {
			*po = *next
			r.transitioned(po, from)
			return true, nil
		}
		if !apierrors.IsConflict(err) {
			return false, err
		}
		conflictsTotal.Inc()
		fresh := &v1.PaymentOrder{}
		if err := r.APIReader.Get(ctx, client.ObjectKeyFromObject(po), fresh); err != nil {
			return false, client.IgnoreNotFound(err)
		}
		cur = fresh
	}
	return false, fmt.Errorf("status of %s: still conflicting after %d reads", client.ObjectKeyFromObject(po), maxConflictRetries)
}

// transitioned records a phase change: an Event and the counter.
func (r *Reconciler) transitioned(po *v1.PaymentOrder, from v1.PaymentPhase) {
	to := po.Status.Phase
	transitionsTotal.WithLabelValues(string(from), string(to)).Inc()
	reason, note := string(to), fmt.Sprintf("%s -> %s", from, to)
	if from == "" {
		note = "accepted as " + string(to)
	} else if from == v1.PhaseProcessed && to == v1.PhaseSubmitted {
		reason = "Retrying"
		note = fmt.Sprintf("%s -> %s, attempt %d: %s", from, to, po.Status.Attempts, po.Status.LastError)
	}
	r.Recorder.Eventf(po, nil, corev1.EventTypeNormal, reason, "Transition", "%s", note)
}

// failed records a gateway error in the status and returns what the
// workqueue should see: the error itself for a transient one (retried
// with backoff), a terminal error for a decline.
func (r *Reconciler) failed(ctx context.Context, po *v1.PaymentOrder, cause error) error {
	problem := ReasonGatewayUnavailable
	if gateway.IsDeclined(cause) {
		problem = ReasonDeclined
	}
	if po.Status.LastError != cause.Error() {
		next := po.DeepCopy()
		next.Status.LastError = cause.Error()
		next.Status.ObservedGeneration = next.Generation
		setConditions(next, problem)
		if err := r.Client.Status().Update(ctx, next); err == nil {
			*po = *next
		} else if !apierrors.IsConflict(err) {
			return errors.Join(cause, err)
		}
		if problem == ReasonDeclined {
			r.Recorder.Eventf(po, nil, corev1.EventTypeWarning, ReasonDeclined, "Gateway", "%s", cause.Error())
		}
	}
	if problem == ReasonDeclined {
		return reconcile.TerminalError(cause)
	}
	return cause
}

// observe records that the operator saw the current generation, also when
// there was nothing to do for it.
func (r *Reconciler) observe(ctx context.Context, po *v1.PaymentOrder) error {
	if po.Status.ObservedGeneration == po.Generation || po.Status.Phase == "" {
		return nil
	}
	next := po.DeepCopy()
	next.Status.ObservedGeneration = next.Generation
	for i := range next.Status.Conditions {
		next.Status.Conditions[i].ObservedGeneration = next.Generation
	}
	if next.Status.LastError == "" {
		setConditions(next, "")
	}
	err := r.Client.Status().Update(ctx, next)
	if apierrors.IsConflict(err) {
		conflictsTotal.Inc()
		return err // the workqueue retries on a fresh read
	}
	return err
}

// ensureFinalizer adds the finalizer, with an optimistic lock so a
// concurrent change is not overwritten.
func (r *Reconciler) ensureFinalizer(ctx context.Context, po *v1.PaymentOrder) error {
	if controllerutil.ContainsFinalizer(po, v1.Finalizer) {
		return nil
	}
	patch := client.MergeFromWithOptions(po.DeepCopy(), client.MergeFromWithOptimisticLock{})
	controllerutil.AddFinalizer(po, v1.Finalizer)
	return r.Client.Patch(ctx, po, patch)
}

// finalize releases an authorization the gateway may still hold for the
// order, then removes the finalizer, once.
func (r *Reconciler) finalize(ctx context.Context, po *v1.PaymentOrder) error {
	if !controllerutil.ContainsFinalizer(po, v1.Finalizer) {
		return nil
	}
	// The cache may still hold an order whose finalizer is gone: ask the
	// API server before calling the gateway.
	if err := r.APIReader.Get(ctx, client.ObjectKeyFromObject(po), po); err != nil || !controllerutil.ContainsFinalizer(po, v1.Finalizer) {
		return client.IgnoreNotFound(err)
	}
	st := &po.Status
	// Authorized: a hold that was never captured. Submitted after an
	// authorize call: a hold whose reply may have been lost.
	if st.Phase == v1.PhaseAuthorized || (st.Phase == v1.PhaseSubmitted && st.LastError != "") {
		req := r.request(po)
		req.Key = Key(po.UID, "void", st.Attempts)
		req.ID = gatewayRef(po).AuthorizationID
		req.AuthorizeKey = Key(po.UID, "authorize", st.Attempts)
		if _, err := call(ctx, r, "void", func(ctx context.Context) (string, error) { return "", r.Gateway.Void(ctx, req) }); err != nil {
			return err
		}
		r.Recorder.Eventf(po, nil, corev1.EventTypeNormal, "Released", "Finalize", "released the authorization of attempt %d (%q) before deletion", st.Attempts, req.ID)
	}
	patch := client.MergeFromWithOptions(po.DeepCopy(), client.MergeFromWithOptimisticLock{})
	controllerutil.RemoveFinalizer(po, v1.Finalizer)
	return client.IgnoreNotFound(r.Client.Patch(ctx, po, patch))
}

// request fills what every gateway call of the order carries.
func (r *Reconciler) request(po *v1.PaymentOrder) gateway.Request {
	return gateway.Request{
		Reference: po.Spec.IdempotencyKey,
		Amount:    int64(po.Spec.Amount.Units),
		Currency:  po.Spec.Amount.Currency,
		Payer:     po.Spec.PayerID,
		Payee:     po.Spec.PayeeID,
	}
}

func gatewayRef(po *v1.PaymentOrder) v1.GatewayReference {
	if po.Status.Gateway == nil {
		return v1.GatewayReference{}
	}
	return *po.Status.Gateway
}

// call runs one gateway call under the deadline and times it.
func call(ctx context.Context, r *Reconciler, op string, f func(context.Context) (string, error)) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, r.GatewayTimeout)
	defer cancel()
	start := time.Now()
	id, err := f(ctx)
	outcome := "ok"
	switch {
	case gateway.IsDeclined(err):
		outcome = "declined"
	case err != nil:
		outcome = "error"
	}
	gatewayDuration.WithLabelValues(op, outcome).Observe(time.Since(start).Seconds())
	if err != nil {
		return "", fmt.Errorf("gateway %s: %w", op, err)
	}
	return id, nil
}

// Options tune the controller.
type Options struct {
	// RetryBaseDelay and RetryMaxDelay bound the exponential backoff after
	// errors.
	RetryBaseDelay, RetryMaxDelay time.Duration
	// MaxConcurrentReconciles is how many orders are reconciled at once.
	MaxConcurrentReconciles int
	// SkipNameValidation lets one process run several managers (tests).
	SkipNameValidation bool
}

// SetupWithManager registers the reconciler. Status writes do not change
// an order's generation, so the predicate keeps the operator from waking
// itself up with its own writes: it steps on in the same reconcile instead.
func (r *Reconciler) SetupWithManager(mgr ctrl.Manager, o Options) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&v1.PaymentOrder{}, builder.WithPredicates(predicate.Or[client.Object](predicate.GenerationChangedPredicate{}, beingDeleted))).
		Named("paymentorder").
		WithOptions(controller.Options{
			RateLimiter:             newRateLimiter(o.RetryBaseDelay, o.RetryMaxDelay),
			MaxConcurrentReconciles: max(o.MaxConcurrentReconciles, 1),
			SkipNameValidation:      &o.SkipNameValidation,
		}).
		Complete(r)
}

// beingDeleted lets through the update that sets deletionTimestamp.
var beingDeleted = predicate.Funcs{
	UpdateFunc: func(e event.UpdateEvent) bool { return !e.ObjectNew.GetDeletionTimestamp().IsZero() },
}
