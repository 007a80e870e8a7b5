//go:build envtest

package payments_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	"k8s.io/apimachinery/pkg/types"

	v1alpha1 "github.com/modelgen/modelgen/examples/payments/api/v1alpha1"
	"github.com/modelgen/modelgen/examples/payments/gateway"
)

// TestLeaderElectionOneReconciles: two operator instances elect a leader
// through a Lease; only the leader reconciles (the other's gateway is never
// called). When the leader stops, the other takes over.
func TestLeaderElectionOneReconciles(t *testing.T) {
	ns := namespace(t)
	o := testOptions(ns)
	o.LeaderElection = true
	o.LeaderElectionID = "payments-operator-test"
	o.LeaderElectionNS = ns
	o.LeaseDuration, o.RenewDeadline, o.RetryPeriod = 10*time.Second, 8*time.Second, 500*time.Millisecond
	gws := []*gw{newGW(gateway.Config{}), newGW(gateway.Config{})}
	stops := []func(){startOperator(t, o, gws[0]), startOperator(t, o, gws[1])}

	var orders []*v1alpha1.PaymentOrder
	for i := range 4 {
		orders = append(orders, create(t, order(ns, fmt.Sprintf("order-%d", i), "acme")))
	}
	for _, po := range orders {
		waitPhase(t, po, v1alpha1.PhaseSettled)
	}
	leader := -1
	for i, g := range gws {
		if g.total() > 0 {
			if leader >= 0 {
				t.Fatalf("both instances called the gateway (%d and %d calls)", gws[0].total(), gws[1].total())
			}
			leader = i
		}
	}
	if leader < 0 {
		t.Fatal("no instance called the gateway")
	}
	var lease coordinationv1.Lease
	if err := k8s.Get(context.Background(), types.NamespacedName{Namespace: ns, Name: o.LeaderElectionID}, &lease); err != nil {
		t.Fatalf("the Lease: %v", err)
	}
	if lease.Spec.HolderIdentity == nil || *lease.Spec.HolderIdentity == "" {
		t.Errorf("the Lease has no holder: %+v", lease.Spec)
	}

	// fail over
	stops[leader]()
	other := gws[1-leader]
	po := create(t, order(ns, "after-failover", "acme"))
	waitPhase(t, po, v1alpha1.PhaseSettled)
	if other.total() == 0 {
		t.Error("the order settled without the remaining instance calling the gateway")
	}
}
