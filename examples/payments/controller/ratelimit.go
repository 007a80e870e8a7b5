package controller

import (
	"time"

	"k8s.io/client-go/util/workqueue"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// newRateLimiter is the workqueue's per-order exponential backoff:
// base, 2*base, 4*base... up to max.
func newRateLimiter(base, max time.Duration) workqueue.TypedRateLimiter[reconcile.Request] {
	if base <= 0 {
		base = 100 * time.Millisecond
	}
	if max < base {
		max = 5 * time.Minute
	}
	return workqueue.NewTypedItemExponentialFailureRateLimiter[reconcile.Request](base, max)
}
