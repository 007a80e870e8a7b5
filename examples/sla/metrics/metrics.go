// Package metrics reads the success ratio of a service from Prometheus for
// the SLA operator.
//
// [Source] is what the operator needs: an instant query (one value at one
// time) and a range query (the values at start, start+step, ..., end). Both
// take the evaluation time from the caller, never from the wall clock, so
// the operator's clock decides which data it sees. [Prometheus] implements
// Source over the Prometheus HTTP API (github.com/prometheus/client_golang);
// [Script] implements it over a scripted availability history, for tests.
//
// # Errors
//
// Every failure is an [*Error] whose [Reason] says what went wrong in words
// fit for a Kubernetes condition: [Unreachable] (no answer: refused, DNS,
// timeout), [QueryFailed] (Prometheus answered with an error: a bad query,
// an execution error, or a result that is not one series) and [NoData] (an
// empty result, or no value at the evaluation time, or NaN).
package metrics

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Sample is one value of a series.
type Sample struct {
	Time  time.Time
	Value float64
}

// Source evaluates PromQL queries that yield a single series.
type Source interface {
	// Instant evaluates query at t.
	Instant(ctx context.Context, query string, t time.Time) (Sample, error)
	// Range evaluates query at start, start+step, ... up to end, and returns
	// the points that have a value, in time order.
	Range(ctx context.Context, query string, start, end time.Time, step time.Duration) ([]Sample, error)
}

// Reason classifies an [Error]; its value is a condition reason.
type Reason string

const (
	// Unreachable: Prometheus did not answer (connection refused, DNS,
	// timeout).
	Unreachable Reason = "PrometheusUnreachable"
	// QueryFailed: Prometheus answered with an error (a bad query, an
	// execution error), or with a result that is not a single series.
	QueryFailed Reason = "QueryFailed"
	// NoData: the query has no value at the evaluation time.
	NoData Reason = "NoData"
)

// Error is a failed evaluation.
type Error struct {
	Reason Reason
	Query  string
	Err    error
}

func (e *Error) Error() string {
	what := map[Reason]string{
		Unreachable: "prometheus is unreachable",
		QueryFailed: "query failed",
		NoData:      "query returned no data",
	}[e.Reason]
	return fmt.Sprintf("%s: %v (query %q)", what, e.Err, e.Query)
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// ReasonOf returns the Reason of err, or QueryFailed for an error that is
// not an *Error.
func ReasonOf(err error) Reason {
	var e *Error
	if errors.As(err, &e) {
		return e.Reason
	}
	return QueryFailed
}
