package metrics

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/url"
	"time"

	"github.com/prometheus/client_golang/api"
	promv1 "github.com/prometheus/client_golang/api/prometheus/v1"
	"github.com/prometheus/common/model"
)

// Prometheus is a [Source] over the Prometheus HTTP API.
type Prometheus struct {
	api     promv1.API
	timeout time.Duration
}

// NewPrometheus returns a client of the Prometheus at address (such as
// http://prometheus.monitoring:9090). Each query gives up after timeout,
// which is also sent to Prometheus as the query's own timeout.
func NewPrometheus(address string, timeout time.Duration) (*Prometheus, error) {
	u, err := url.Parse(address)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("prometheus address %q: want a URL such as http://localhost:9090", address)
	}
	if timeout <= 0 {
		return nil, fmt.Errorf("prometheus timeout %v: want a positive duration", timeout)
	}
	c, err := api.NewClient(api.Config{Address: address})
	if err != nil {
		return nil, fmt.Errorf("prometheus address %q: %w", address, err)
	}
	return &Prometheus{api: promv1.NewAPI(c), timeout: timeout}, nil
}

// Instant evaluates query at t.
func (p *Prometheus) Instant(ctx context.Context, query string, t time.Time) (Sample, error) {
	ctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	v, _, err := p.api.Query(ctx, query, t, promv1.WithTimeout(p.timeout))
	if err != nil {
		return Sample{}, classify(query, err)
	}
	var s Sample
	switch v := v.(type) {
	case model.Vector:
		if len(v) != 1 {
			return Sample{}, count(query, len(v))
		}
		s = Sample{Time: v[0].Timestamp.Time(), Value: float64(v[0].Value)}
	case *model.Scalar:
		s = Sample{Time: v.Timestamp.Time(), Value: float64(v.Value)}
	default:
		return Sample{}, &Error{QueryFailed, query, fmt.Errorf("the result is a %s, want an instant vector of one series", v.Type())}
	}
	if math.IsNaN(s.Value) {
		return Sample{}, &Error{NoData, query, fmt.Errorf("the value at %s is NaN (no requests?)", t.UTC().Format(time.RFC3339))}
	}
	return s, nil
}

// Range evaluates query from start to end every step.
func (p *Prometheus) Range(ctx context.Context, query string, start, end time.Time, step time.Duration) ([]Sample, error) {
	ctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	v, _, err := p.api.QueryRange(ctx, query, promv1.Range{Start: start, End: end, Step: step}, promv1.WithTimeout(p.timeout))
	if err != nil {
		return nil, classify(query, err)
	}
	m, ok := v.(model.Matrix)
	if !ok {
		return nil, &Error{QueryFailed, query, fmt.Errorf("the result is a %s, want a range vector", v.Type())}
	}
	if len(m) != 1 {
		return nil, count(query, len(m))
	}
	var out []Sample
	for _, p := range m[0].Values {
		if !math.IsNaN(float64(p.Value)) {
			out = append(out, Sample{Time: p.Timestamp.Time(), Value: float64(p.Value)})
		}
	}
	if len(out) == 0 {
		return nil, &Error{NoData, query, fmt.Errorf("no value between %s and %s", start.UTC().Format(time.RFC3339), end.UTC().Format(time.RFC3339))}
	}
	return out, nil
}

func count(query string, n int) error {
	if n == 0 {
		return &Error{NoData, query, errors.New("the result is empty")}
	}
	return &Error{QueryFailed, query, fmt.Errorf("the result has %d series, want one (aggregate it, e.g. with sum)", n)}
}

// classify maps a client error: an answer from Prometheus is QueryFailed,
// anything else (no answer) is Unreachable.
func classify(query string, err error) error {
	var apiErr *promv1.Error
	if errors.As(err, &apiErr) {
		switch apiErr.Type {
		case promv1.ErrTimeout, promv1.ErrCanceled:
			return &Error{Unreachable, query, err}
		}
		return &Error{QueryFailed, query, err}
	}
	return &Error{Unreachable, query, err}
}
