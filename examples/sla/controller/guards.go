package controller

import (
	"errors"
	"fmt"
	"math"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	slav1 "github.com/modelgen/modelgen/examples/sla/api/v1alpha1"
)

// Guards decides the guarded transitions of one contract at one time, and
// records what happened; it is the contract's SLAPhaseHooks.
type Guards struct {
	Spec *slav1.SLAContractSpec
	Now  time.Time
	// Taken lists the transitions taken, in order.
	Taken []slav1.SLAPhaseTransition
}

var _ slav1.SLAPhaseHooks = (*Guards)(nil)

// Healthy admits pending -> active when the latest evaluation is not below
// the degrade threshold.
func (g *Guards) Healthy(s *slav1.SLAContractStatus, _ slav1.SLAPhaseTransition) error {
	switch {
	case s.Measurement == nil:
		return errors.New("not measured yet")
	case s.BelowDegradeSince != nil:
		return fmt.Errorf("availability %v%% is below %v%%", s.Measurement.AvailabilityPercent, g.Spec.Thresholds.DegradeBelowPercent)
	}
	return nil
}

// DegradeHeld admits active -> degraded.
func (g *Guards) DegradeHeld(s *slav1.SLAContractStatus, _ slav1.SLAPhaseTransition) error {
	th := g.Spec.Thresholds
	return g.held(s.BelowDegradeSince, th.DegradeForSeconds, fmt.Sprintf("below %v%%", th.DegradeBelowPercent))
}

// RecoverHeld admits degraded -> active.
func (g *Guards) RecoverHeld(s *slav1.SLAContractStatus, _ slav1.SLAPhaseTransition) error {
	th := g.Spec.Thresholds
	return g.held(s.RecoverSince, th.RecoverForSeconds, fmt.Sprintf("at or above %v%%", th.RecoverAtPercent))
}

// BreachHeld admits degraded -> breached.
func (g *Guards) BreachHeld(s *slav1.SLAContractStatus, _ slav1.SLAPhaseTransition) error {
	th := g.Spec.Thresholds
	return g.held(s.BelowBreachSince, th.BreachForSeconds, fmt.Sprintf("below %v%%", th.BreachBelowPercent))
}

// Acknowledged admits breached -> resolved once the customer set
// spec.acknowledgement.
func (g *Guards) Acknowledged(*slav1.SLAContractStatus, slav1.SLAPhaseTransition) error {
	if g.Spec.Acknowledgement == "" {
		return errors.New("spec.acknowledgement is not set")
	}
	return nil
}

// held admits when since is set and at least d seconds before Now.
func (g *Guards) held(since *metav1.Time, d int32, what string) error {
	if since == nil {
		return fmt.Errorf("availability is not %s", what)
	}
	if got, want := g.Now.Sub(since.Time), seconds(d); got < want {
		return fmt.Errorf("availability has been %s for %v of %v", what, got, want)
	}
	return nil
}

// OnExit does nothing.
func (g *Guards) OnExit(*slav1.SLAContractStatus, slav1.SLAPhaseTransition) {}

// OnEnter records the transition; entering breached records the breach and
// its compensation.
func (g *Guards) OnEnter(s *slav1.SLAContractStatus, t slav1.SLAPhaseTransition) {
	g.Taken = append(g.Taken, t)
	if t.To != slav1.SLABreached {
		return
	}
	r := slav1.BreachRecord{DetectedAt: metav1.NewTime(g.Now), Currency: g.Spec.Compensation.Currency}
	if s.BelowBreachSince != nil {
		r.Since = *s.BelowBreachSince
	}
	if s.Measurement != nil {
		r.AvailabilityPercent = s.Measurement.AvailabilityPercent
	}
	r.CreditPercent, r.CompensationCents = Compensation(g.Spec, r.AvailabilityPercent)
	s.Breaches = append(s.Breaches, r)
}

// Apply writes an observation into the status: the measurement (availability
// in percent, rounded to 0.001) and the since-timestamps.
func Apply(s *slav1.SLAContractStatus, o Observation) {
	percent := math.Round(min(max(o.Ratio, 0), 1)*100_000) / 1000
	s.Measurement = &slav1.Measurement{AvailabilityPercent: percent, Time: metav1.NewTime(o.Time)}
	s.BelowDegradeSince = metaTime(o.BelowDegradeSince)
	s.RecoverSince = metaTime(o.RecoverSince)
	s.BelowBreachSince = metaTime(o.BelowBreachSince)
}

func metaTime(t *time.Time) *metav1.Time {
	if t == nil {
		return nil
	}
	m := metav1.NewTime(*t)
	return &m
}

// Advance fires at most one guarded transition out of the current phase,
// through its generated typed method, and reports whether it did. One per
// status write, because the API server admits only single steps of the
// machine (active -> breached is refused even when both guards would admit).
// Errors other than a guard's refusal are returned.
func Advance(s *slav1.SLAContractStatus, g *Guards) (bool, error) {
	before := s.Phase
	for _, fire := range next(s) {
		if err := fire(g); err != nil && !isRefusal(err) {
			return false, err
		}
		if s.Phase != before {
			return true, nil
		}
	}
	return false, nil
}

// next lists the events to try from the current phase, most severe first.
func next(s *slav1.SLAContractStatus) []func(slav1.SLAPhaseHooks) error {
	switch s.Phase {
	case slav1.SLAPending:
		return []func(slav1.SLAPhaseHooks) error{s.ActivateWith}
	case slav1.SLAActive:
		return []func(slav1.SLAPhaseHooks) error{s.DegradeWith}
	case slav1.SLADegraded:
		return []func(slav1.SLAPhaseHooks) error{s.BreachWith, s.RecoverWith}
	case slav1.SLABreached:
		return []func(slav1.SLAPhaseHooks) error{s.ResolveWith}
	}
	return nil
}

// NextDeadline is the earliest time a running threshold of the current phase
// will have held long enough; ok is false when none is running.
func NextDeadline(s *slav1.SLAContractStatus, spec *slav1.SLAContractSpec) (time.Time, bool) {
	th := spec.Thresholds
	var candidates []time.Time
	add := func(since *metav1.Time, d int32) {
		if since != nil {
			candidates = append(candidates, since.Add(seconds(d)))
		}
	}
	switch s.Phase {
	case slav1.SLAActive:
		add(s.BelowDegradeSince, th.DegradeForSeconds)
	case slav1.SLADegraded:
		add(s.RecoverSince, th.RecoverForSeconds)
		add(s.BelowBreachSince, th.BreachForSeconds)
	}
	if len(candidates) == 0 {
		return time.Time{}, false
	}
	earliest := candidates[0]
	for _, t := range candidates[1:] {
		if t.Before(earliest) {
			earliest = t
		}
	}
	return earliest, true
}
