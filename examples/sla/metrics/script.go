package metrics

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"time"
)

// Script is a [Source] that answers every query from a scripted history:
// from each Step's From on, the value is its Value, until the next step.
// Before the first step, and where Value is NaN, there is no data. Err, when
// set, is returned by every query instead.
type Script struct {
	Steps []Step
	Err   error
}

// Step is a value that holds from From until the next step.
type Step struct {
	From  time.Time
	Value float64
}

// At returns the value at t.
func (s *Script) At(t time.Time) (float64, bool) {
	i := sort.Search(len(s.Steps), func(i int) bool { return s.Steps[i].From.After(t) }) - 1
	if i < 0 || math.IsNaN(s.Steps[i].Value) {
		return 0, false
	}
	return s.Steps[i].Value, true
}

// Instant returns the value at t.
func (s *Script) Instant(_ context.Context, query string, t time.Time) (Sample, error) {
	if s.Err != nil {
		return Sample{}, s.Err
	}
	v, ok := s.At(t)
	if !ok {
		return Sample{}, &Error{NoData, query, errors.New("the result is empty")}
	}
	return Sample{Time: t, Value: v}, nil
}

// Range returns the values at start, start+step, ... up to end.
func (s *Script) Range(_ context.Context, query string, start, end time.Time, step time.Duration) ([]Sample, error) {
	if s.Err != nil {
		return nil, s.Err
	}
	if step <= 0 {
		return nil, &Error{QueryFailed, query, fmt.Errorf("step %v is not positive", step)}
	}
	var out []Sample
	for t := start; !t.After(end); t = t.Add(step) {
		if v, ok := s.At(t); ok {
			out = append(out, Sample{Time: t, Value: v})
		}
	}
	if len(out) == 0 {
		return nil, &Error{NoData, query, errors.New("the result is empty")}
	}
	return out, nil
}
