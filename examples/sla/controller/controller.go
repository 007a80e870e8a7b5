// Package controller is the SLA operator: it compares the measured
// availability of a service (reported by a probe in an annotation) with the
// agreement and moves the SLA through its lifecycle with the state machine
// generated from the `state` tag on SLAStatus.Phase. The API server enforces
// the same machine through the CRD's CEL transition rules.
package controller

import (
	"context"
	"strconv"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrlruntime "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	v1 "github.com/modelgen/modelgen/examples/sla/api/v1"
)

// Annotations a probe (or a person) sets on an SLA.
const (
	// MeasuredAvailability is the availability in percent, e.g. "99.95".
	MeasuredAvailability = "sla.example.com/measured-availability"
	// Resolved marks a breach as handled.
	Resolved = "sla.example.com/resolved"
)

// Reconciler advances SLAs one transition per reconcile.
type Reconciler struct {
	Client client.Client
}

// Reconcile fires at most one event of the SLA machine.
func (r *Reconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	var sla v1.SLA
	if err := r.Client.Get(ctx, req.NamespacedName, &sla); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	measured, hasMeasure := measure(&sla)
	before := sla.Status.DeepCopy()
	event, err := Next(&sla.Status, &sla.Spec, measured, hasMeasure, sla.Annotations[Resolved] == "true")
	if err != nil {
		return reconcile.Result{}, reconcile.TerminalError(err)
	}
	if hasMeasure {
		sla.Status.MeasuredAvailability = measured
	}
	if event != "" {
		meta.SetStatusCondition(&sla.Status.Conditions, metav1.Condition{Type: "Compliant", Status: compliant(sla.Status.Phase),
			Reason: event, Message: "phase is " + string(sla.Status.Phase), ObservedGeneration: sla.Generation})
	}
	sla.Status.ObservedGeneration = sla.Generation
	if equalStatus(before, &sla.Status) {
		return reconcile.Result{}, nil
	}
	err = r.Client.Status().Update(ctx, &sla)
	if apierrors.IsConflict(err) {
		return reconcile.Result{Requeue: true}, nil
	}
	return reconcile.Result{}, err
}

func equalStatus(a, b *v1.SLAStatus) bool {
	return a.Phase == b.Phase && a.MeasuredAvailability == b.MeasuredAvailability && a.ObservedGeneration == b.ObservedGeneration
}

func measure(sla *v1.SLA) (float64, bool) {
	v, ok := sla.Annotations[MeasuredAvailability]
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(v, 64)
	return f, err == nil
}

func compliant(p v1.SLAPhase) metav1.ConditionStatus {
	if p == v1.SLABreached {
		return metav1.ConditionFalse
	}
	return metav1.ConditionTrue
}

// Next decides the one event to fire and fires it through the generated
// methods; it returns the event's name ("" for none).
func Next(st *v1.SLAStatus, spec *v1.SLASpec, measured float64, hasMeasure, resolved bool) (string, error) {
	switch st.Phase {
	case "":
		st.Phase = v1.SLAPhaseMachine().Initial()
		return "Created", nil
	case v1.SLAPending:
		return "Activate", st.Activate()
	case v1.SLAActive:
		if hasMeasure && measured < spec.WarningThreshold {
			return "Degrade", st.Degrade()
		}
	case v1.SLADegraded:
		switch {
		case !hasMeasure:
		case measured >= spec.WarningThreshold:
			return "Recover", st.Recover()
		case measured < spec.AvailabilityTarget:
			return "Breach", st.Breach()
		}
	case v1.SLABreached:
		if resolved {
			return "Resolve", st.Resolve()
		}
	}
	return "", nil
}

// SetupWithManager registers the reconciler.
func (r *Reconciler) SetupWithManager(mgr ctrlruntime.Manager) error {
	return ctrlruntime.NewControllerManagedBy(mgr).For(&v1.SLA{}).Named("sla").Complete(r)
}
