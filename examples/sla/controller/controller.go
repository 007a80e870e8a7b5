package controller

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/predicate"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	slav1 "github.com/modelgen/modelgen/examples/sla/api/v1alpha1"
	"github.com/modelgen/modelgen/examples/sla/metrics"
	"github.com/modelgen/modelgen/statemachine"
)

// Condition types.
const (
	// MetricsAvailable: True when the last evaluation succeeded; False with
	// a reason of package metrics (PrometheusUnreachable, QueryFailed,
	// NoData) when it did not.
	MetricsAvailable = "MetricsAvailable"
	// Compliant: True when active, False when degraded, breached or
	// resolved, Unknown when pending.
	Compliant = "Compliant"
)

// Recorder emits Kubernetes Events (controller-runtime's
// mgr.GetEventRecorder satisfies it).
type Recorder interface {
	Eventf(regarding, related runtime.Object, eventtype, reason, action, note string, args ...any)
}

// DefaultPollInterval is how often a contract with no running threshold is
// evaluated when Reconciler.PollInterval is zero.
const DefaultPollInterval = time.Minute

// Reconciler evaluates SLAContracts.
type Reconciler struct {
	Client   client.Client
	Metrics  metrics.Source
	Clock    Clock
	Recorder Recorder
	// PollInterval is how often a contract with no running threshold is
	// evaluated (default DefaultPollInterval); a running threshold is
	// evaluated again at its deadline.
	PollInterval time.Duration
}

func (r *Reconciler) poll() time.Duration {
	if r.PollInterval > 0 {
		return r.PollInterval
	}
	return DefaultPollInterval
}

// Reconcile evaluates one contract, stores its status and emits an Event for
// each transition taken.
func (r *Reconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	var c slav1.SLAContract
	if err := r.Client.Get(ctx, req.NamespacedName, &c); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	before := c.Status.DeepCopy()
	wait, taken, err := r.evaluate(ctx, &c)
	if err != nil {
		return reconcile.Result{}, err
	}
	c.Status.ObservedGeneration = c.Generation
	if !equality.Semantic.DeepEqual(before, &c.Status) {
		if err := r.Client.Status().Update(ctx, &c); err != nil {
			if apierrors.IsConflict(err) {
				// someone wrote the contract since it was read: evaluate
				// the new version soon (nothing was stored, no Event sent)
				return reconcile.Result{RequeueAfter: 100 * time.Millisecond}, nil
			}
			return reconcile.Result{}, err
		}
	}
	r.emit(&c, taken)
	return reconcile.Result{RequeueAfter: wait}, nil
}

// evaluate evaluates the contract at the clock's time, truncated to a
// multiple of the contract's interval (as Prometheus evaluates rules), so
// that evaluations and since-timestamps fall on one grid. It updates the
// status in memory and says when to look again (0: only on a change of the
// contract).
func (r *Reconciler) evaluate(ctx context.Context, c *slav1.SLAContract) (time.Duration, []slav1.SLAPhaseTransition, error) {
	g := &Guards{Spec: &c.Spec, Now: r.Clock.Now().Truncate(Interval(&c.Spec))}
	wait, err := r.step(ctx, c, g)
	return wait, g.Taken, err
}

func (r *Reconciler) step(ctx context.Context, c *slav1.SLAContract, g *Guards) (time.Duration, error) {
	s := &c.Status
	if s.InitPhase() {
		// The API server admits pending as the first phase only; move on
		// from there in the next reconcile.
		meta.SetStatusCondition(&s.Conditions, metav1.Condition{Type: Compliant, Status: metav1.ConditionUnknown,
			Reason: "Pending", Message: "not measured healthy yet", ObservedGeneration: c.Generation})
		return time.Millisecond, nil
	}
	switch s.Phase {
	case slav1.SLAResolved:
		return 0, nil
	case slav1.SLABreached:
		if _, err := Advance(s, g); err != nil {
			return 0, reconcile.TerminalError(err)
		}
		r.setCompliant(c)
		return 0, nil
	}
	if err := r.measure(ctx, c, g.Now); err != nil {
		log.FromContext(ctx).Info("evaluation failed; phase unchanged", "error", err.Error())
		meta.SetStatusCondition(&s.Conditions, metav1.Condition{Type: MetricsAvailable, Status: metav1.ConditionFalse,
			Reason: string(metrics.ReasonOf(err)), Message: trim(err.Error()), ObservedGeneration: c.Generation})
		return r.until(onGrid(g.Now.Add(r.poll()), Interval(&c.Spec))), nil
	}
	took, err := Advance(s, g)
	if err != nil {
		return 0, reconcile.TerminalError(err)
	}
	r.setCompliant(c)
	if took {
		// the next phase may be due at the same time: look again at once
		return time.Millisecond, nil
	}
	return r.until(NextEvaluation(s, &c.Spec, g.Now, r.poll())), nil
}

// until is the real-time wait for a time of the clock; never zero, which
// would mean no requeue.
func (r *Reconciler) until(t time.Time) time.Duration {
	return max(r.Clock.Until(t), time.Millisecond)
}

// NextEvaluation is when to evaluate again a contract evaluated at now: at
// the nearest deadline of a running threshold, or after poll when that comes
// first; both rounded up to the grid of the contract's interval.
func NextEvaluation(s *slav1.SLAContractStatus, spec *slav1.SLAContractSpec, now time.Time, poll time.Duration) time.Time {
	interval := Interval(spec)
	next := onGrid(now.Add(max(poll, interval)), interval)
	if d, ok := NextDeadline(s, spec); ok {
		if d = onGrid(d, interval); d.After(now) && d.Before(next) {
			next = d
		}
	}
	return next
}

// onGrid rounds t up to a multiple of interval.
func onGrid(t time.Time, interval time.Duration) time.Time {
	if up := t.Truncate(interval); up.Before(t) {
		return up.Add(interval)
	}
	return t
}

// measure runs the contract's query over the lookback ending at now and
// writes the observation into the status.
func (r *Reconciler) measure(ctx context.Context, c *slav1.SLAContract, now time.Time) error {
	q := Query(&c.Spec)
	points, err := r.Metrics.Range(ctx, q, now.Add(-Lookback(&c.Spec)), now, Interval(&c.Spec))
	if err != nil {
		return err
	}
	o, err := Observe(points, now, &c.Spec)
	if err != nil {
		return err
	}
	Apply(&c.Status, o)
	meta.SetStatusCondition(&c.Status.Conditions, metav1.Condition{Type: MetricsAvailable, Status: metav1.ConditionTrue,
		Reason: "Measured", Message: fmt.Sprintf("availability %v%% at %s", c.Status.Measurement.AvailabilityPercent, now.UTC().Format(time.RFC3339)),
		ObservedGeneration: c.Generation})
	return nil
}

// Query is the contract's query with $window replaced by its window.
func Query(spec *slav1.SLAContractSpec) string {
	return strings.ReplaceAll(spec.Query, "$window", fmt.Sprintf("%ds", spec.WindowSeconds))
}

func (r *Reconciler) setCompliant(c *slav1.SLAContract) {
	cond := metav1.Condition{Type: Compliant, ObservedGeneration: c.Generation}
	switch c.Status.Phase {
	case slav1.SLAPending:
		cond.Status, cond.Reason, cond.Message = metav1.ConditionUnknown, "Pending", "not measured healthy yet"
	case slav1.SLAActive:
		cond.Status, cond.Reason, cond.Message = metav1.ConditionTrue, "Active", "the service meets the contract"
	case slav1.SLADegraded:
		cond.Status, cond.Reason, cond.Message = metav1.ConditionFalse, "Degraded", "availability stayed below the degrade threshold"
	case slav1.SLABreached:
		cond.Status, cond.Reason, cond.Message = metav1.ConditionFalse, "Breached", "availability stayed below the breach threshold; compensation is owed"
	case slav1.SLAResolved:
		cond.Status, cond.Reason, cond.Message = metav1.ConditionFalse, "Resolved", "the breach was acknowledged"
	}
	meta.SetStatusCondition(&c.Status.Conditions, cond)
}

// Event reasons, one per transition target.
var eventReasons = map[slav1.SLAPhase]string{
	slav1.SLAActive:   "Active",
	slav1.SLADegraded: "Degraded",
	slav1.SLABreached: "Breached",
	slav1.SLAResolved: "Resolved",
}

// emit records an Event for each transition taken.
func (r *Reconciler) emit(c *slav1.SLAContract, taken []slav1.SLAPhaseTransition) {
	if r.Recorder == nil {
		return
	}
	for _, t := range taken {
		kind, note := corev1.EventTypeNormal, fmt.Sprintf("%s -> %s", t.From, t.To)
		if m := c.Status.Measurement; m != nil {
			note += fmt.Sprintf(" at availability %v%% (%s)", m.AvailabilityPercent, m.Time.UTC().Format(time.RFC3339))
		}
		switch t.To {
		case slav1.SLADegraded:
			kind = corev1.EventTypeWarning
		case slav1.SLABreached:
			kind = corev1.EventTypeWarning
			b := c.Status.Breaches[len(c.Status.Breaches)-1]
			note += fmt.Sprintf("; compensation %d.%02d %s (%v%% of the monthly fee)", b.CompensationCents/100, b.CompensationCents%100, b.Currency, b.CreditPercent)
		}
		r.Recorder.Eventf(c, nil, kind, eventReasons[t.To], string(t.Event), "%s", note)
	}
}

func isRefusal(err error) bool { return errors.Is(err, statemachine.ErrGuardRefused) }

// trim keeps a condition message within the API's 32768 bytes.
func trim(s string) string {
	if len(s) > 1024 {
		return s[:1024] + "..."
	}
	return s
}

// SetupWithManager registers the reconciler. Only spec changes (a new
// generation) trigger a reconcile: the operator's own status updates do not,
// and its timing comes from RequeueAfter.
func (r *Reconciler) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).
		For(&slav1.SLAContract{}, builder.WithPredicates(predicate.GenerationChangedPredicate{})).
		Named("slacontract").
		Complete(r)
}
