package controller

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	slav1 "github.com/modelgen/modelgen/examples/sla/api/v1alpha1"
	"github.com/modelgen/modelgen/examples/sla/metrics"
)

// These tests run the operator's evaluation (query, observation, guards,
// transitions, compensation, requeue) over a scripted availability history
// and a fake clock. The API server's part is tested in examples/e2e.

var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

func at(d time.Duration) time.Time { return t0.Add(d) }

type fakeClock struct{ now time.Time }

func (c *fakeClock) Now() time.Time                  { return c.now }
func (c *fakeClock) Until(t time.Time) time.Duration { return t.Sub(c.now) }

func spec() slav1.SLAContractSpec {
	return slav1.SLAContractSpec{
		Service: "checkout", Customer: "acme", Objective: 99.9,
		Query:           `sum(rate(ok[$window])) / sum(rate(all[$window]))`,
		WindowSeconds:   60,
		IntervalSeconds: 1,
		Thresholds: slav1.Thresholds{
			DegradeBelowPercent: 95, DegradeForSeconds: 120,
			RecoverAtPercent: 99, RecoverForSeconds: 300,
			BreachBelowPercent: 90, BreachForSeconds: 300,
		},
		Compensation: slav1.CompensationPolicy{Currency: "EUR", MonthlyFeeCents: 100_000,
			BaseCreditPercent: 10, CreditPercentPerPoint: 2, MaxCreditPercent: 50},
	}
}

// harness evaluates one contract the way Reconcile does, without the API
// server.
type harness struct {
	t      *testing.T
	c      slav1.SLAContract
	clock  *fakeClock
	script *metrics.Script
	r      *Reconciler
	taken  []slav1.SLAPhaseTransition
}

func newHarness(t *testing.T, steps ...metrics.Step) *harness {
	h := &harness{t: t, c: slav1.SLAContract{Spec: spec()}, clock: &fakeClock{now: t0}, script: &metrics.Script{Steps: steps}}
	h.r = &Reconciler{Metrics: h.script, Clock: h.clock}
	return h
}

// evalAt evaluates at t and returns the requeue delay.
func (h *harness) evalAt(t time.Time) time.Duration {
	h.t.Helper()
	h.clock.now = t
	wait, taken, err := h.r.evaluate(context.Background(), &h.c)
	if err != nil {
		h.t.Fatalf("evaluate at %v: %v", t.Sub(t0), err)
	}
	h.taken = append(h.taken, taken...)
	return wait
}

func (h *harness) wantPhase(at time.Time, want slav1.SLAPhase) {
	h.t.Helper()
	h.evalAt(at)
	if h.c.Status.Phase != want {
		h.t.Fatalf("at t0+%v: phase %s, want %s (status %+v)", at.Sub(t0), h.c.Status.Phase, want, h.c.Status)
	}
}

// active brings the contract to active at t0+1m on a healthy history.
func (h *harness) active() {
	h.t.Helper()
	h.wantPhase(at(time.Minute), slav1.SLAPending)
	h.wantPhase(at(time.Minute), slav1.SLAActive)
}

func TestPendingBecomesActiveOnFirstHealthyEvaluation(t *testing.T) {
	h := newHarness(t, metrics.Step{From: t0, Value: 0.93}, metrics.Step{From: at(2 * time.Minute), Value: 0.999})
	h.wantPhase(at(time.Minute), slav1.SLAPending) // the first phase is written alone
	h.wantPhase(at(time.Minute), slav1.SLAPending) // 93% is not healthy
	h.wantPhase(at(2*time.Minute), slav1.SLAActive)
	if len(h.taken) != 1 || h.taken[0].Event != slav1.SLAPhaseEventActivate {
		t.Fatalf("taken %v", h.taken)
	}
}

func TestDegradeAtExactlyTwoMinutes(t *testing.T) {
	h := newHarness(t, metrics.Step{From: t0, Value: 0.999}, metrics.Step{From: at(10 * time.Minute), Value: 0.94})
	h.active()
	h.wantPhase(at(12*time.Minute-time.Second), slav1.SLAActive)
	if got := h.c.Status.BelowDegradeSince; got == nil || !got.Time.Equal(at(10*time.Minute)) {
		t.Fatalf("belowDegradeSince %v, want t0+10m", got)
	}
	h.wantPhase(at(12*time.Minute), slav1.SLADegraded)
}

func TestExactlyNinetyFivePercentIsNotBelow(t *testing.T) {
	h := newHarness(t, metrics.Step{From: t0, Value: 0.999}, metrics.Step{From: at(2 * time.Minute), Value: 0.95})
	h.active()
	h.wantPhase(at(30*time.Minute), slav1.SLAActive)
	if h.c.Status.BelowDegradeSince != nil || h.c.Status.Measurement.AvailabilityPercent != 95 {
		t.Fatalf("at exactly 95%%: %+v", h.c.Status)
	}

	h = newHarness(t, metrics.Step{From: t0, Value: 0.999}, metrics.Step{From: at(2 * time.Minute), Value: 0.9499})
	h.active()
	h.wantPhase(at(4*time.Minute), slav1.SLADegraded)
}

func TestRecoverAtExactlyNinetyNinePercentForFiveMinutes(t *testing.T) {
	h := newHarness(t,
		metrics.Step{From: t0, Value: 0.999},
		metrics.Step{From: at(2 * time.Minute), Value: 0.93},
		metrics.Step{From: at(5 * time.Minute), Value: 0.99})
	h.active()
	h.wantPhase(at(4*time.Minute), slav1.SLADegraded)
	h.wantPhase(at(10*time.Minute-time.Second), slav1.SLADegraded)
	h.wantPhase(at(10*time.Minute), slav1.SLAActive)
}

func TestRecoverNeedsTheWholeDuration(t *testing.T) {
	// a dip back below 99% restarts the recovery
	h := newHarness(t,
		metrics.Step{From: t0, Value: 0.999},
		metrics.Step{From: at(2 * time.Minute), Value: 0.93},
		metrics.Step{From: at(5 * time.Minute), Value: 0.995},
		metrics.Step{From: at(8 * time.Minute), Value: 0.985},
		metrics.Step{From: at(8*time.Minute + time.Second), Value: 0.995})
	h.active()
	h.wantPhase(at(4*time.Minute), slav1.SLADegraded)
	h.wantPhase(at(10*time.Minute), slav1.SLADegraded)
	h.wantPhase(at(13*time.Minute), slav1.SLADegraded)
	h.wantPhase(at(13*time.Minute+time.Second), slav1.SLAActive)
}

func TestBreachAfterFiveMinutesRecordsCompensation(t *testing.T) {
	h := newHarness(t, metrics.Step{From: t0, Value: 0.999}, metrics.Step{From: at(2 * time.Minute), Value: 0.85})
	h.active()
	h.wantPhase(at(4*time.Minute), slav1.SLADegraded)
	h.wantPhase(at(7*time.Minute-time.Second), slav1.SLADegraded)
	if len(h.c.Status.Breaches) != 0 {
		t.Fatalf("breaches before the breach: %v", h.c.Status.Breaches)
	}
	h.wantPhase(at(7*time.Minute), slav1.SLABreached)
	want := slav1.BreachRecord{Since: metav1.NewTime(at(2 * time.Minute)), DetectedAt: metav1.NewTime(at(7 * time.Minute)),
		AvailabilityPercent: 85, CreditPercent: 39.8, CompensationCents: 39_800, Currency: "EUR"}
	if len(h.c.Status.Breaches) != 1 || h.c.Status.Breaches[0] != want {
		t.Fatalf("breaches %+v, want [%+v]", h.c.Status.Breaches, want)
	}
	if last := h.taken[len(h.taken)-1]; last.Event != slav1.SLAPhaseEventBreach {
		t.Fatalf("last transition %v", last)
	}
}

func TestBreachFromActiveGoesThroughDegraded(t *testing.T) {
	// an operator that was down for the whole dip takes both steps, one
	// per status write, and looks again at once after the first
	h := newHarness(t, metrics.Step{From: t0, Value: 0.999}, metrics.Step{From: at(2 * time.Minute), Value: 0.80})
	h.active()
	if wait := h.evalAt(at(20 * time.Minute)); h.c.Status.Phase != slav1.SLADegraded || wait != time.Millisecond {
		t.Fatalf("first evaluation: phase %s, requeue %v", h.c.Status.Phase, wait)
	}
	h.wantPhase(at(20*time.Minute), slav1.SLABreached)
	var events []string
	for _, tr := range h.taken {
		events = append(events, string(tr.Event))
	}
	if got := strings.Join(events, " "); got != "Activate Degrade Breach" {
		t.Fatalf("transitions %s", got)
	}
}

func TestResolveNeedsAcknowledgement(t *testing.T) {
	h := newHarness(t, metrics.Step{From: t0, Value: 0.999}, metrics.Step{From: at(2 * time.Minute), Value: 0.85})
	h.active()
	h.wantPhase(at(20*time.Minute), slav1.SLADegraded)
	h.wantPhase(at(20*time.Minute), slav1.SLABreached)
	if wait := h.evalAt(at(21 * time.Minute)); wait != 0 || h.c.Status.Phase != slav1.SLABreached {
		t.Fatalf("breached without acknowledgement: phase %s, requeue %v (want none)", h.c.Status.Phase, wait)
	}
	h.c.Spec.Acknowledgement = "ops@acme: credited"
	h.wantPhase(at(22*time.Minute), slav1.SLAResolved)
	if len(h.c.Status.Breaches) != 1 {
		t.Fatalf("breaches %v", h.c.Status.Breaches)
	}
}

func TestUnreachableLeavesPhaseAndSetsCondition(t *testing.T) {
	h := newHarness(t, metrics.Step{From: t0, Value: 0.999}, metrics.Step{From: at(2 * time.Minute), Value: 0.85})
	h.active()
	h.wantPhase(at(3*time.Minute), slav1.SLAActive)
	before := h.c.Status.DeepCopy()
	h.script.Err = &metrics.Error{Reason: metrics.Unreachable, Query: "q", Err: errors.New("connection refused")}
	wait := h.evalAt(at(10 * time.Minute)) // the data would breach it by now
	if h.c.Status.Phase != slav1.SLAActive || *h.c.Status.Measurement != *before.Measurement ||
		!h.c.Status.BelowDegradeSince.Equal(before.BelowDegradeSince) {
		t.Fatalf("the evaluation changed the status: %+v, was %+v", h.c.Status, before)
	}
	cond := meta.FindStatusCondition(h.c.Status.Conditions, MetricsAvailable)
	if cond == nil || cond.Status != metav1.ConditionFalse || cond.Reason != "PrometheusUnreachable" || !strings.Contains(cond.Message, "connection refused") {
		t.Fatalf("condition %+v", cond)
	}
	if wait != time.Minute {
		t.Fatalf("requeue %v, want the poll interval", wait)
	}
	h.script.Err = nil
	h.wantPhase(at(10*time.Minute), slav1.SLADegraded)
	if cond := meta.FindStatusCondition(h.c.Status.Conditions, MetricsAvailable); cond.Status != metav1.ConditionTrue {
		t.Fatalf("condition after recovery %+v", cond)
	}
}

func TestNoValueAtEvaluationTimeIsNoData(t *testing.T) {
	h := newHarness(t, metrics.Step{From: t0, Value: 0.999}, metrics.Step{From: at(5 * time.Minute), Value: math.NaN()})
	h.active()
	h.wantPhase(at(6*time.Minute), slav1.SLAActive)
	cond := meta.FindStatusCondition(h.c.Status.Conditions, MetricsAvailable)
	if cond == nil || cond.Status != metav1.ConditionFalse || cond.Reason != "NoData" {
		t.Fatalf("condition %+v", cond)
	}
	if !h.c.Status.Measurement.Time.Time.Equal(at(time.Minute)) {
		t.Fatalf("measurement %+v changed", h.c.Status.Measurement)
	}
}

func TestRequeueAtNearestDeadline(t *testing.T) {
	h := newHarness(t, metrics.Step{From: t0, Value: 0.999}, metrics.Step{From: at(10 * time.Minute), Value: 0.85})
	h.c.Spec.IntervalSeconds = 15
	h.r.PollInterval = time.Minute
	h.active()
	if wait := h.evalAt(at(5 * time.Minute)); wait != time.Minute {
		t.Fatalf("nothing running: requeue %v, want the poll interval (1m)", wait)
	}
	// below 95% since t0+10m: the degrade deadline t0+12m comes before the
	// next poll (t0+12m15s)
	if wait := h.evalAt(at(11*time.Minute + 15*time.Second)); wait != 45*time.Second {
		t.Fatalf("degrade deadline in 45s: requeue %v", wait)
	}
	// evaluated on the grid (t0+11m15s) while the clock reads t0+11m22s:
	// the wait is in real time
	if wait := h.evalAt(at(11*time.Minute + 22*time.Second)); wait != 38*time.Second {
		t.Fatalf("degrade deadline in 38s: requeue %v", wait)
	}
	h.wantPhase(at(12*time.Minute), slav1.SLADegraded)
	if wait := h.evalAt(at(12 * time.Minute)); wait != time.Minute {
		t.Fatalf("breach deadline t0+15m is after the next poll: requeue %v, want 1m", wait)
	}
	// a deadline off the grid is rounded up to it: breach at t0+10m+290s
	// (t0+14m50s) is first seen at t0+15m
	h.c.Spec.Thresholds.BreachForSeconds = 290
	if wait := h.evalAt(at(14*time.Minute + 10*time.Second)); wait != 50*time.Second {
		t.Fatalf("breach deadline t0+14m50s on a 15s grid: requeue %v, want 50s", wait)
	}
	h.wantPhase(at(14*time.Minute+45*time.Second), slav1.SLADegraded)
	h.wantPhase(at(15*time.Minute), slav1.SLABreached)
}

func TestGapBreaksARun(t *testing.T) {
	s := spec()
	step := time.Second
	var points []metrics.Sample
	for i := 0; i <= 200; i++ {
		if i == 50 {
			continue // a missing point
		}
		points = append(points, metrics.Sample{Time: at(time.Duration(i) * step), Value: 0.9})
	}
	o, err := Observe(points, at(200*time.Second), &s)
	if err != nil {
		t.Fatal(err)
	}
	if !o.BelowDegradeSince.Equal(at(51 * time.Second)) {
		t.Fatalf("since %v, want t0+51s", o.BelowDegradeSince.Sub(t0))
	}
}

func TestCompensation(t *testing.T) {
	s := spec()
	for _, c := range []struct {
		availability, credit float64
		cents                int64
	}{
		{85, 39.8, 39_800},      // 10 + 2 * 14.9
		{99.9, 10, 10_000},      // at the objective: the base credit
		{99.95, 10, 10_000},     // above it: no negative shortfall
		{50, 50, 50_000},        // capped at MaxCreditPercent
		{99.123, 11.55, 11_550}, // 10 + 2 * 0.777 = 11.554, rounded to 0.01
	} {
		credit, cents := Compensation(&s, c.availability)
		if credit != c.credit || cents != c.cents {
			t.Errorf("at %v%%: %v%% and %d cents, want %v%% and %d", c.availability, credit, cents, c.credit, c.cents)
		}
	}
}

func TestIntervalThatDoesNotDivideTheLookback(t *testing.T) {
	// 120s + 7s of lookback is not a multiple of 7s: rounded up, the range
	// query still ends on the evaluation time
	h := newHarness(t, metrics.Step{From: t0, Value: 0.999})
	h.c.Spec.IntervalSeconds = 7
	h.wantPhase(at(10*time.Minute), slav1.SLAPending)
	h.wantPhase(at(10*time.Minute), slav1.SLAActive)
}
