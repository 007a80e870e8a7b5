package metrics

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// These tests answer the client with the Prometheus HTTP API's own JSON
// (as Prometheus 2.42 prints it); examples/e2e runs the client against a
// real Prometheus.

var at = time.Unix(1_700_000_000, 0).UTC()

func server(t *testing.T, h http.HandlerFunc) *Prometheus {
	t.Helper()
	s := httptest.NewServer(h)
	t.Cleanup(s.Close)
	p, err := NewPrometheus(s.URL, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func answer(status int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}
}

func TestInstantReadsOneSeries(t *testing.T) {
	var got string
	p := server(t, func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		got = r.URL.Path + " query=" + r.Form.Get("query") + " time=" + r.Form.Get("time")
		answer(200, `{"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1700000000,"0.95"]}]}}`)(w, r)
	})
	s, err := p.Instant(context.Background(), "ratio", at)
	if err != nil {
		t.Fatal(err)
	}
	if s.Value != 0.95 || !s.Time.Equal(at) {
		t.Fatalf("sample %+v", s)
	}
	if got != "/api/v1/query query=ratio time=1700000000" {
		t.Fatalf("request %s: the evaluation time must be the caller's", got)
	}
}

func TestRangeReadsPointsAndSendsTheGrid(t *testing.T) {
	var got string
	p := server(t, func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		got = r.URL.Path + " start=" + r.Form.Get("start") + " end=" + r.Form.Get("end") + " step=" + r.Form.Get("step")
		answer(200, `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[[1699999985,"0.9"],[1700000000,"NaN"]]}]}}`)(w, r)
	})
	points, err := p.Range(context.Background(), "ratio", at.Add(-15*time.Second), at, 15*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if len(points) != 1 || points[0].Value != 0.9 || !points[0].Time.Equal(at.Add(-15*time.Second)) {
		t.Fatalf("points %+v (NaN points are dropped)", points)
	}
	if got != "/api/v1/query_range start=1699999985 end=1700000000 step=15" {
		t.Fatalf("request %s", got)
	}
}

func TestErrors(t *testing.T) {
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	deadAddr := "http://" + closed.Addr().String()
	closed.Close()
	dead, err := NewPrometheus(deadAddr, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	slow, err := NewPrometheus(httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(2 * time.Second)
	})).URL, 100*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name   string
		p      *Prometheus
		reason Reason
		says   string
	}{
		{"connection refused", dead, Unreachable, "prometheus is unreachable"},
		{"timeout", slow, Unreachable, "deadline exceeded"},
		{"bad query", server(t, answer(400, `{"status":"error","errorType":"bad_data","error":"1:5: parse error: unexpected end of input"}`)), QueryFailed, "parse error"},
		{"execution error", server(t, answer(422, `{"status":"error","errorType":"execution","error":"many-to-many matching not allowed"}`)), QueryFailed, "many-to-many"},
		{"server error", server(t, answer(503, `service unavailable`)), QueryFailed, "server error: 503"},
		{"empty", server(t, answer(200, `{"status":"success","data":{"resultType":"vector","result":[]}}`)), NoData, "empty"},
		{"two series", server(t, answer(200, `{"status":"success","data":{"resultType":"vector","result":[{"metric":{"a":"1"},"value":[1700000000,"1"]},{"metric":{"a":"2"},"value":[1700000000,"1"]}]}}`)), QueryFailed, "2 series"},
		{"NaN", server(t, answer(200, `{"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1700000000,"NaN"]}]}}`)), NoData, "NaN"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.p.Instant(context.Background(), "ratio", at)
			var e *Error
			if !errors.As(err, &e) || e.Reason != c.reason || ReasonOf(err) != c.reason || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("got %v, want reason %s saying %q", err, c.reason, c.says)
			}
		})
	}
}

func TestRangeErrors(t *testing.T) {
	for _, c := range []struct {
		name, body string
		reason     Reason
	}{
		{"empty", `{"status":"success","data":{"resultType":"matrix","result":[]}}`, NoData},
		{"only NaN", `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{},"values":[[1700000000,"NaN"]]}]}}`, NoData},
		{"two series", `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"a":"1"},"values":[[1700000000,"1"]]},{"metric":{"a":"2"},"values":[[1700000000,"1"]]}]}}`, QueryFailed},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := server(t, answer(200, c.body)).Range(context.Background(), "ratio", at.Add(-time.Minute), at, 15*time.Second)
			if ReasonOf(err) != c.reason {
				t.Fatalf("got %v, want %s", err, c.reason)
			}
		})
	}
}

func TestNewPrometheusRefusesBadSettings(t *testing.T) {
	for _, c := range []struct {
		addr    string
		timeout time.Duration
	}{{"localhost:9090", time.Second}, {"", time.Second}, {"http://localhost:9090", 0}} {
		if _, err := NewPrometheus(c.addr, c.timeout); err == nil {
			t.Errorf("NewPrometheus(%q, %v) accepted", c.addr, c.timeout)
		}
	}
}

func TestScript(t *testing.T) {
	s := &Script{Steps: []Step{{From: at, Value: 0.9}, {From: at.Add(time.Minute), Value: 0.99}}}
	points, err := s.Range(context.Background(), "q", at.Add(-30*time.Second), at.Add(90*time.Second), 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var got []float64
	for _, p := range points {
		got = append(got, p.Value)
	}
	if len(got) != 4 || got[0] != 0.9 || got[1] != 0.9 || got[2] != 0.99 || got[3] != 0.99 {
		t.Fatalf("values %v: before the first step there is no data; each step holds until the next", got)
	}
	if _, err := s.Instant(context.Background(), "q", at.Add(-time.Second)); ReasonOf(err) != NoData {
		t.Fatalf("before the first step: %v", err)
	}
}
