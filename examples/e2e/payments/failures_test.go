//go:build envtest

package payments_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	v1 "github.com/modelgen/modelgen/examples/payments/api/v1"
	v1alpha1 "github.com/modelgen/modelgen/examples/payments/api/v1alpha1"
	"github.com/modelgen/modelgen/examples/payments/controller"
	"github.com/modelgen/modelgen/examples/payments/gateway"

	"github.com/modelgen/modelgen/internal/testkit"
)

const conflicts = "paymentorder_status_conflicts_total"

// staleClient answers reads of one order with an old version of it, as a
// lagging informer cache would; writes go to the API server. The old
// version is one the watch saw through v1alpha1; the reconciler reads v1,
// so it gets that version converted to v1, by the generated conversion the
// API server's webhook runs.
type staleClient struct {
	client.Client
	stale *v1alpha1.PaymentOrder
}

func (c staleClient) Get(ctx context.Context, key client.ObjectKey, obj client.Object, opts ...client.GetOption) error {
	if key != client.ObjectKeyFromObject(c.stale) {
		return c.Client.Get(ctx, key, obj, opts...)
	}
	switch po := obj.(type) {
	case *v1alpha1.PaymentOrder:
		c.stale.DeepCopyInto(po)
		return nil
	case *v1.PaymentOrder:
		if err := c.stale.DeepCopy().ConvertTo(po); err != nil {
			return err
		}
		po.APIVersion, po.Kind = v1.GroupVersion.String(), "PaymentOrder"
		return nil
	}
	return c.Client.Get(ctx, key, obj, opts...)
}

// TestGatewayFailureTakesRetryPath: the first authorization hangs until
// its deadline and then fails twice more, transiently: the same key is
// tried again with growing backoff. The first charge's reply is lost: the
// same key is charged again and the gateway charges once. The clearing
// bounces the first settlement: the order takes Processed -> Submitted
// (Retry) and settles on the second attempt, under new keys. Then every
// version the operator wrote is reconciled again from a stale read (a
// forced duplicate reconcile): the gateway still saw one charge per key,
// one per attempt, and the order is not overwritten.
func TestGatewayFailureTakesRetryPath(t *testing.T) {
	ns := namespace(t)
	o := testOptions(ns)
	o.GatewayTimeout = 300 * time.Millisecond
	o.Controller.RetryBaseDelay = 100 * time.Millisecond
	g := newGW(gateway.Config{})
	var mu sync.Mutex
	calls := map[string]int{}
	var firstDeadline time.Duration
	var uid string
	g.before = func(ctx context.Context, op string, r gateway.Request) error {
		mu.Lock()
		n := calls[r.Key]
		calls[r.Key]++
		mu.Unlock()
		switch r.Key {
		case uid + "/authorize/1":
			switch n {
			case 0: // hangs: only the deadline ends it
				dl, ok := ctx.Deadline()
				if !ok {
					return errors.New("no deadline: the test would hang")
				}
				mu.Lock()
				firstDeadline = time.Until(dl)
				mu.Unlock()
				<-ctx.Done()
				return ctx.Err()
			case 1, 2:
				return gateway.ErrUnavailable
			}
		case uid + "/capture/1":
			if n == 0 { // charged, but the reply is lost
				if _, err := g.Simulated.Capture(ctx, r); err != nil {
					return err
				}
				return gateway.ErrUnavailable
			}
		case uid + "/settle/1":
			return &gateway.Declined{Code: "clearing_bounced", Message: "the clearing bounced the charge"}
		}
		return nil
	}
	seen := watchOrders(t, ns)
	// the hook needs the UID before the operator sees the order
	po := create(t, order(ns, "flaky", "acme"))
	uid = string(po.UID)
	stop := startOperator(t, o, g)
	got := waitPhase(t, po, v1alpha1.PhaseSettled)

	if got.Status.Attempts != 2 {
		t.Errorf("attempts %d, want 2", got.Status.Attempts)
	}
	if err := checkConditions(got); err != nil {
		t.Error(err)
	}
	for _, v := range seen() {
		if v.UID == po.UID && v.Status.Phase != "" {
			if err := checkConditions(&v); err != nil {
				t.Errorf("resourceVersion %s (attempt %d): %v", v.ResourceVersion, v.Status.Attempts, err)
			}
		}
	}
	mu.Lock()
	left := firstDeadline
	mu.Unlock()
	if left <= 0 || left > o.GatewayTimeout {
		t.Errorf("the first call had %v left, want at most the gateway timeout %v", left, o.GatewayTimeout)
	}
	auth1 := g.callsTo(controller.Key(po.UID, "authorize", 1))
	if len(auth1) != 4 || !errors.Is(auth1[0].err, context.DeadlineExceeded) {
		t.Fatalf("authorize/1 calls %+v, want 4, the first ended by its deadline", auth1)
	}
	// backoff: base 100ms, doubling per failure of the same order
	for i, min := range []time.Duration{90 * time.Millisecond, 180 * time.Millisecond, 360 * time.Millisecond} {
		if gap := auth1[i+1].at.Sub(auth1[i].at); gap < min {
			t.Errorf("retry %d came %v after the failure, want at least %v of backoff", i+1, gap, min)
		}
	}
	if n := len(g.callsTo(controller.Key(po.UID, "capture", 1))); n != 2 {
		t.Errorf("capture/1 called %d times, want 2 (the lost reply is asked again under the same key)", n)
	}
	waitEvents(t, po, "Submitted", "Authorized", "Processed", "Retrying", "Authorized", "Processed", "Settled")
	stop() // the duplicates below are the only reconciles from here on

	// forced duplicates: every version written, reconciled again from a
	// stale read
	dups := 0
	conflictsBefore := metric(t, conflicts, nil)
	for _, v := range seen() {
		if v.UID != po.UID || v.Status.Phase == "" || v.Status.Phase == v1alpha1.PhaseSettled || !controllerutil.ContainsFinalizer(&v, v1alpha1.Finalizer) {
			continue
		}
		dups++
		r := reconciler(g, staleClient{Client: k8s, stale: &v})
		if _, err := r.Reconcile(context.Background(), reconcile.Request{NamespacedName: client.ObjectKeyFromObject(po)}); err != nil && !gateway.IsDeclined(err) {
			t.Errorf("duplicate reconcile of %s (attempt %d): %v", v.Status.Phase, v.Status.Attempts, err)
		}
	}
	if dups < 6 {
		t.Errorf("only %d stale versions to reconcile again", dups)
	}
	if metric(t, conflicts, nil)-conflictsBefore < float64(dups) {
		t.Errorf("%d duplicates, but %s rose by %v", dups, conflicts, metric(t, conflicts, nil)-conflictsBefore)
	}
	after := get(t, po)
	if after.ResourceVersion != got.ResourceVersion {
		t.Errorf("a duplicate reconcile wrote the order: %+v", after.Status)
	}
	want := []string{"authorize authorize/1", "capture capture/1", "authorize authorize/2", "capture capture/2", "settle settle/2"}
	if got := g.applied(po.UID); !slices.Equal(got, want) {
		t.Errorf("gateway applied %v, want %v: one charge per key, one key per attempt", got, want)
	}
	if n := len(g.callsTo(controller.Key(po.UID, "capture", 2))); n < 2 {
		t.Errorf("capture/2 called %d times: the duplicate did not reach the gateway", n)
	}
}

// conflictOnce writes a competing status (an extra condition) just before
// the reconciler's first status write, so that write gets a 409.
type conflictOnce struct {
	client.Client
	mu        sync.Mutex
	done      bool
	conflicts int
}

func (c *conflictOnce) Status() client.SubResourceWriter {
	return &conflictWriter{c.Client.Status(), c}
}

type conflictWriter struct {
	client.SubResourceWriter
	c *conflictOnce
}

func (w *conflictWriter) Update(ctx context.Context, obj client.Object, opts ...client.SubResourceUpdateOption) error {
	w.c.mu.Lock()
	first := !w.c.done
	w.c.done = true
	w.c.mu.Unlock()
	if first {
		other := &v1alpha1.PaymentOrder{}
		if err := k8s.Get(ctx, client.ObjectKeyFromObject(obj), other); err != nil {
			return err
		}
		meta.SetStatusCondition(&other.Status.Conditions, metav1.Condition{Type: "Audited", Status: metav1.ConditionTrue, Reason: "Sampled", Message: "picked for audit"})
		if err := k8s.Status().Update(ctx, other); err != nil {
			return err
		}
	}
	err := w.SubResourceWriter.Update(ctx, obj, opts...)
	if apierrors.IsConflict(err) {
		w.c.mu.Lock()
		w.c.conflicts++
		w.c.mu.Unlock()
	}
	return err
}

// TestConflictingUpdateIsRetried: another writer changes the status
// between the operator's read and its write. The write gets a 409; the
// operator reads the order again, applies its transition to the fresh
// copy and writes that, in the same reconcile: the other writer's
// condition survives and the order still settles.
func TestConflictingUpdateIsRetried(t *testing.T) {
	ns := namespace(t)
	po := create(t, order(ns, "contended", "acme"))
	c := &conflictOnce{Client: k8s}
	r := reconciler(newGW(gateway.Config{}), c)
	before := metric(t, conflicts, nil)
	if _, err := r.Reconcile(context.Background(), reconcile.Request{NamespacedName: client.ObjectKeyFromObject(po)}); err != nil {
		t.Fatal(err)
	}
	got := get(t, po)
	if c.conflicts != 1 {
		t.Fatalf("%d conflicts, want the 1 the test forced", c.conflicts)
	}
	if got.Status.Phase != v1alpha1.PhaseSettled {
		t.Errorf("after one reconcile with a conflict, the phase is %q, want Settled", got.Status.Phase)
	}
	if !meta.IsStatusConditionTrue(got.Status.Conditions, "Audited") {
		t.Errorf("the other writer's condition was overwritten: %+v", got.Status.Conditions)
	}
	if d := metric(t, conflicts, nil) - before; d != 1 {
		t.Errorf("%s rose by %v, want 1", conflicts, d)
	}
}

// TestDeleteAuthorizedRunsFinalizer: an order whose charge keeps failing
// sits in Authorized, holding the payer's money. Deleting it releases the
// authorization at the gateway, once, before the order goes; an order that
// settled holds nothing, and goes without a gateway call.
func TestDeleteAuthorizedRunsFinalizer(t *testing.T) {
	ns := namespace(t)
	g := newGW(gateway.Config{})
	g.before = func(ctx context.Context, op string, r gateway.Request) error {
		if op == "capture" {
			return gateway.ErrUnavailable
		}
		return nil
	}
	startOperator(t, testOptions(ns), g)
	po := create(t, order(ns, "held", "acme"))
	held := waitPhase(t, po, v1alpha1.PhaseAuthorized)
	if !controllerutil.ContainsFinalizer(held, v1alpha1.Finalizer) {
		t.Fatalf("no finalizer on an authorized order: %v", held.Finalizers)
	}
	authID := held.Status.Gateway.AuthorizationID
	if err := k8s.Delete(context.Background(), held); err != nil {
		t.Fatal(err)
	}
	gone(t, po)
	voidKey := controller.Key(po.UID, "void", 1)
	if n := len(g.callsTo(voidKey)); n != 1 {
		t.Errorf("void called %d times, want 1", n)
	}
	var voids []gateway.Op
	for _, op := range g.Applied() {
		if op.Kind == "void" {
			voids = append(voids, op)
		}
	}
	if len(voids) != 1 || voids[0].ID != authID || voids[0].Key != voidKey {
		t.Errorf("voids %+v, want one of %s under %s", voids, authID, voidKey)
	}
	testkit.Eventually(t, "one Released event", func() (bool, string) {
		evs := events(t, po)
		n := 0
		for _, e := range evs {
			if e == "Released" {
				n++
			}
		}
		return n == 1, fmt.Sprint(evs)
	})

	// a settled order holds nothing
	g.mu.Lock()
	g.before = nil
	g.mu.Unlock()
	done := create(t, order(ns, "done", "acme"))
	waitPhase(t, done, v1alpha1.PhaseSettled)
	if err := k8s.Delete(context.Background(), done); err != nil {
		t.Fatal(err)
	}
	gone(t, done)
	if n := len(g.callsTo(controller.Key(done.UID, "void", 1))); n != 0 {
		t.Errorf("deleting a settled order called void %d times", n)
	}
}

func gone(t *testing.T, po *v1alpha1.PaymentOrder) {
	t.Helper()
	testkit.Eventually(t, po.Name+" to be gone", func() (bool, string) {
		cur := &v1alpha1.PaymentOrder{}
		err := k8s.Get(context.Background(), client.ObjectKeyFromObject(po), cur)
		if apierrors.IsNotFound(err) {
			return true, ""
		}
		return false, fmt.Sprint("finalizers ", cur.Finalizers)
	})
}
