package controller

import (
	"fmt"
	"time"

	slav1 "github.com/modelgen/modelgen/examples/sla/api/v1alpha1"
	"github.com/modelgen/modelgen/examples/sla/metrics"
)

// DefaultInterval is the evaluation interval of a contract that sets none.
const DefaultInterval = 30 * time.Second

// Observation is what one evaluation found at Time.
type Observation struct {
	Time  time.Time
	Ratio float64
	// The start of the run of points, ending at Time, where the condition
	// held; nil when it does not hold at Time.
	BelowDegradeSince, RecoverSince, BelowBreachSince *time.Time
}

// Interval is the contract's evaluation interval.
func Interval(spec *slav1.SLAContractSpec) time.Duration {
	if spec.IntervalSeconds > 0 {
		return seconds(spec.IntervalSeconds)
	}
	return DefaultInterval
}

// Lookback is how far back an evaluation must look: the longest threshold
// duration plus one interval, so that a threshold that has held for its
// whole duration is seen to, rounded up to a multiple of the interval, so
// that the range query's last point falls on the evaluation time.
func Lookback(spec *slav1.SLAContractSpec) time.Duration {
	th := spec.Thresholds
	interval := Interval(spec)
	d := max(seconds(th.DegradeForSeconds), seconds(th.RecoverForSeconds), seconds(th.BreachForSeconds)) + interval
	return (d + interval - 1) / interval * interval
}

// Observe reads the points of a range query that ends at now. It fails with
// NoData when there is no point at now.
func Observe(points []metrics.Sample, now time.Time, spec *slav1.SLAContractSpec) (Observation, error) {
	if len(points) == 0 || !points[len(points)-1].Time.Equal(now) {
		return Observation{}, &metrics.Error{Reason: metrics.NoData, Query: spec.Query,
			Err: fmt.Errorf("no value at %s", now.UTC().Format(time.RFC3339))}
	}
	th := spec.Thresholds
	step := Interval(spec)
	return Observation{
		Time:              now,
		Ratio:             points[len(points)-1].Value,
		BelowDegradeSince: heldSince(points, step, func(r float64) bool { return r < th.DegradeBelowPercent/100 }),
		RecoverSince:      heldSince(points, step, func(r float64) bool { return r >= th.RecoverAtPercent/100 }),
		BelowBreachSince:  heldSince(points, step, func(r float64) bool { return r < th.BreachBelowPercent/100 }),
	}, nil
}

// heldSince is the time of the first point of the run, ending at the last
// point, where cond holds; two points further apart than step break a run.
func heldSince(points []metrics.Sample, step time.Duration, cond func(float64) bool) *time.Time {
	i := len(points) - 1
	if !cond(points[i].Value) {
		return nil
	}
	for i > 0 && cond(points[i-1].Value) && points[i].Time.Sub(points[i-1].Time) <= step {
		i--
	}
	t := points[i].Time
	return &t
}

func seconds(s int32) time.Duration { return time.Duration(s) * time.Second }
