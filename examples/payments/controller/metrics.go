package controller

import (
	"github.com/prometheus/client_golang/prometheus"
	"sigs.k8s.io/controller-runtime/pkg/metrics"
)

// The operator's metrics, served with controller-runtime's own on the
// manager's metrics endpoint.
var (
	transitionsTotal = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "paymentorder_transitions_total",
		Help: "Phase changes of PaymentOrders written by the operator, by phase before and after (from is empty for a new order).",
	}, []string{"from", "to"})
	gatewayDuration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name:    "paymentorder_gateway_request_duration_seconds",
		Help:    "Latency of payment gateway calls, by operation and outcome (ok, declined, error).",
		Buckets: []float64{.001, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10},
	}, []string{"operation", "outcome"})
	conflictsTotal = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "paymentorder_status_conflicts_total",
		Help: "Status writes refused with 409 Conflict and retried on a fresh read.",
	})
)

func init() {
	metrics.Registry.MustRegister(transitionsTotal, gatewayDuration, conflictsTotal)
}
