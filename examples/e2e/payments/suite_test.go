//go:build envtest

// Package payments_test is the PaymentOrder operator's envtest suite: a real
// kube-apiserver and etcd (KUBEBUILDER_ASSETS, from hack/controlplane.sh)
// with the generated CRD installed, the operator assembled by
// examples/payments/operator exactly as its main does, and the simulated
// gateway behind a recorder. Each test has a namespace of its own, and its
// operator watches only that namespace.
package payments_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	corev1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	ctrlmetrics "sigs.k8s.io/controller-runtime/pkg/metrics"

	"github.com/modelgen/modelgen/examples/e2e/internal/controlplane"
	v1alpha1 "github.com/modelgen/modelgen/examples/payments/api/v1alpha1"
	"github.com/modelgen/modelgen/examples/payments/controller"
	"github.com/modelgen/modelgen/examples/payments/gateway"
	"github.com/modelgen/modelgen/examples/payments/operator"

	"github.com/modelgen/modelgen/internal/testkit"
)

var (
	restConfig *rest.Config
	k8s        client.WithWatch // talks to the API server directly, no cache
)

func TestMain(m *testing.M) {
	var out io.Writer = io.Discard
	if os.Getenv("PAYMENTS_E2E_LOG") != "" {
		out = os.Stderr
	}
	ctrl.SetLogger(zap.New(zap.WriteTo(out), zap.UseDevMode(true)))
	env, cfg, err := controlplane.Start()
	if err != nil {
		fmt.Fprintln(os.Stderr, "starting the control plane:", err)
		os.Exit(1)
	}
	restConfig = cfg
	scheme, err := operator.Scheme()
	if err == nil {
		k8s, err = client.NewWithWatch(cfg, client.Options{Scheme: scheme})
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	if err := env.Stop(); err != nil {
		fmt.Fprintln(os.Stderr, "stopping the control plane:", err)
	}
	os.Exit(code)
}

var nsCount atomic.Int32

// namespace creates a namespace for the test.
func namespace(t *testing.T) string {
	t.Helper()
	name := fmt.Sprintf("%s-%d", strings.ToLower(regexp.MustCompile(`[^A-Za-z0-9]+`).ReplaceAllString(t.Name(), "-")), nsCount.Add(1))
	if len(name) > 63 {
		name = name[len(name)-63:]
	}
	name = strings.Trim(name, "-")
	if err := k8s.Create(context.Background(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}); err != nil {
		t.Fatal(err)
	}
	return name
}

// testOptions are the operator's defaults with nothing listening on fixed
// ports, short backoffs and the test's namespace.
func testOptions(ns string) operator.Options {
	o := operator.Defaults()
	o.MetricsAddr, o.ProbeAddr, o.TenantViewAddr = "0", "0", "0"
	o.Namespace = ns
	o.GatewayTimeout = 2 * time.Second
	o.Controller.RetryBaseDelay = 20 * time.Millisecond
	o.Controller.RetryMaxDelay = time.Second
	o.SkipNameValidation = true
	return o
}

// startOperator runs the operator with gw until stop is called or the test
// ends; it returns stop.
func startOperator(t *testing.T, o operator.Options, gw gateway.Gateway) (stop func()) {
	t.Helper()
	mgr, err := operator.NewManager(restConfig, o)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := operator.Setup(mgr, o, gw); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mgr.Start(ctx) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("manager: %v", err)
			}
		})
	}
	t.Cleanup(stop)
	return stop
}

// reconciler is a reconciler outside any manager, on client c: the
// duplicate of a stale or doubled worker. It records no events.
func reconciler(g gateway.Gateway, c client.Client) *controller.Reconciler {
	return &controller.Reconciler{Client: c, APIReader: k8s, Gateway: g,
		Recorder: noEvents{}, GatewayTimeout: 2 * time.Second}
}

type noEvents struct{}

func (noEvents) Eventf(runtime.Object, runtime.Object, string, string, string, string, ...any) {}

func order(ns, name, tenant string) *v1alpha1.PaymentOrder {
	return &v1alpha1.PaymentOrder{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec: v1alpha1.PaymentOrderSpec{
			Amount: 120.50, Currency: "EUR", PayerID: "DE89370400440532", PayeeID: "FR14200410100505",
			TenantID: tenant, Method: "sepa", IdempotencyKey: "invoice-" + name, Description: "invoice " + name,
		},
	}
}

func create(t *testing.T, po *v1alpha1.PaymentOrder) *v1alpha1.PaymentOrder {
	t.Helper()
	if err := k8s.Create(context.Background(), po); err != nil {
		t.Fatal(err)
	}
	return po
}

func get(t *testing.T, po *v1alpha1.PaymentOrder) *v1alpha1.PaymentOrder {
	t.Helper()
	got := &v1alpha1.PaymentOrder{}
	if err := k8s.Get(context.Background(), client.ObjectKeyFromObject(po), got); err != nil {
		t.Fatal(err)
	}
	return got
}

// waitPhase waits until the order is in phase and returns it.
func waitPhase(t *testing.T, po *v1alpha1.PaymentOrder, phase v1alpha1.PaymentPhase) *v1alpha1.PaymentOrder {
	t.Helper()
	var got *v1alpha1.PaymentOrder
	testkit.Eventually(t, fmt.Sprintf("%s to be %s", po.Name, phase), func() (bool, string) {
		got = get(t, po)
		return got.Status.Phase == phase, fmt.Sprintf("phase %q, lastError %q", got.Status.Phase, got.Status.LastError)
	})
	return got
}

// condition returns the condition's status and reason.
func condition(po *v1alpha1.PaymentOrder, typ string) (metav1.ConditionStatus, string) {
	for _, c := range po.Status.Conditions {
		if c.Type == typ {
			return c.Status, c.Reason
		}
	}
	return "", ""
}

// checkConditions checks the conditions an order must carry in its phase:
// Ready is True only when no work is pending, Authorized, Settled and
// Refunded follow the phase, and every condition saw the generation.
func checkConditions(po *v1alpha1.PaymentOrder) error {
	p := po.Status.Phase
	in := func(ps ...v1alpha1.PaymentPhase) metav1.ConditionStatus {
		if slices.Contains(ps, p) {
			return metav1.ConditionTrue
		}
		return metav1.ConditionFalse
	}
	ready := in(v1alpha1.PhaseSettled, v1alpha1.PhaseRefunded)
	if p == v1alpha1.PhaseSettled && po.Spec.Refund != nil {
		ready = metav1.ConditionFalse // a refund is pending
	}
	if po.Status.LastError != "" && p != v1alpha1.PhaseSubmitted {
		ready = metav1.ConditionFalse
	}
	want := map[string]metav1.ConditionStatus{
		v1alpha1.ConditionReady:      ready,
		v1alpha1.ConditionAuthorized: in(v1alpha1.PhaseAuthorized, v1alpha1.PhaseProcessed, v1alpha1.PhaseSettled, v1alpha1.PhaseRefunded),
		v1alpha1.ConditionSettled:    in(v1alpha1.PhaseSettled, v1alpha1.PhaseRefunded),
		v1alpha1.ConditionRefunded:   in(v1alpha1.PhaseRefunded),
	}
	if len(po.Status.Conditions) != len(want) {
		return fmt.Errorf("phase %s: %d conditions, want %d: %+v", p, len(po.Status.Conditions), len(want), po.Status.Conditions)
	}
	for _, c := range po.Status.Conditions {
		if w, ok := want[c.Type]; !ok || c.Status != w {
			return fmt.Errorf("phase %s: condition %s is %s (%s), want %s", p, c.Type, c.Status, c.Reason, w)
		}
		if c.ObservedGeneration != po.Status.ObservedGeneration {
			return fmt.Errorf("phase %s: condition %s observed generation %d, status %d", p, c.Type, c.ObservedGeneration, po.Status.ObservedGeneration)
		}
	}
	return nil
}

// watchOrders records every version of the namespace's orders that the
// API server sends, until the test ends.
func watchOrders(t *testing.T, ns string) func() []v1alpha1.PaymentOrder {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	w, err := k8s.Watch(ctx, &v1alpha1.PaymentOrderList{}, client.InNamespace(ns))
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var seen []v1alpha1.PaymentOrder
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ev := range w.ResultChan() {
			if po, ok := ev.Object.(*v1alpha1.PaymentOrder); ok {
				mu.Lock()
				seen = append(seen, *po.DeepCopy())
				mu.Unlock()
			}
		}
	}()
	t.Cleanup(func() { cancel(); w.Stop(); <-done })
	// what the watch delivered, once it has caught up with the orders as
	// they are now (each event goes through the conversion to v1alpha1, so
	// the last may arrive after a read has seen it)
	return func() []v1alpha1.PaymentOrder {
		t.Helper()
		var now v1alpha1.PaymentOrderList
		if err := k8s.List(context.Background(), &now, client.InNamespace(ns)); err != nil {
			t.Fatal(err)
		}
		var out []v1alpha1.PaymentOrder
		testkit.Eventually(t, "the watch to deliver the orders as they are", func() (bool, string) {
			mu.Lock()
			out = slices.Clone(seen)
			mu.Unlock()
			for _, cur := range now.Items {
				if !slices.ContainsFunc(out, func(v v1alpha1.PaymentOrder) bool {
					return v.UID == cur.UID && v.ResourceVersion == cur.ResourceVersion
				}) {
					return false, cur.Name + " at resourceVersion " + cur.ResourceVersion
				}
			}
			return true, ""
		})
		return out
	}
}

// events returns the reasons of the events.k8s.io Events about obj, in
// the order they happened.
func events(t *testing.T, po *v1alpha1.PaymentOrder) []string {
	t.Helper()
	var list eventsv1.EventList
	if err := k8s.List(context.Background(), &list, client.InNamespace(po.Namespace)); err != nil {
		t.Fatal(err)
	}
	var evs []eventsv1.Event
	for _, e := range list.Items {
		if e.Regarding.UID == po.UID {
			evs = append(evs, e)
		}
	}
	slices.SortStableFunc(evs, func(a, b eventsv1.Event) int { return a.EventTime.Time.Compare(b.EventTime.Time) })
	var reasons []string
	for _, e := range evs {
		reasons = append(reasons, e.Reason)
	}
	return reasons
}

// waitEvents waits until the events about po have exactly the reasons want.
func waitEvents(t *testing.T, po *v1alpha1.PaymentOrder, want ...string) {
	t.Helper()
	testkit.Eventually(t, fmt.Sprintf("events %v", want), func() (bool, string) {
		got := events(t, po)
		return slices.Equal(got, want), fmt.Sprint(got)
	})
}

// metric returns the value of a counter, or the sample count of a
// histogram, on controller-runtime's registry.
func metric(t *testing.T, name string, labels map[string]string) float64 {
	t.Helper()
	fams, err := ctrlmetrics.Registry.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range fams {
		if f.GetName() != name {
			continue
		}
		for _, m := range f.GetMetric() {
			if matches(m, labels) {
				if h := m.GetHistogram(); h != nil {
					return float64(h.GetSampleCount())
				}
				return m.GetCounter().GetValue()
			}
		}
	}
	return 0
}

func matches(m *dto.Metric, labels map[string]string) bool {
	n := 0
	for _, l := range m.GetLabel() {
		if v, ok := labels[l.GetName()]; ok {
			if v != l.GetValue() {
				return false
			}
			n++
		}
	}
	return n == len(labels)
}

// gw records every call the operator makes to a simulated gateway, and
// lets a test intervene before a call reaches it.
type gw struct {
	*gateway.Simulated
	mu    sync.Mutex
	calls []gwCall
	// before, if set, runs before each call; an error it returns is the
	// call's answer and the simulated gateway never sees the call.
	before func(ctx context.Context, op string, r gateway.Request) error
}

type gwCall struct {
	op, key string
	at      time.Time
	err     error
}

func newGW(cfg gateway.Config) *gw { return &gw{Simulated: gateway.NewSimulated(cfg)} }

func (g *gw) do(ctx context.Context, op string, r gateway.Request, f func() (string, error)) (string, error) {
	g.mu.Lock()
	before := g.before
	g.mu.Unlock()
	var id string
	var err error
	if before != nil {
		err = before(ctx, op, r)
	}
	if err == nil {
		id, err = f()
	}
	g.mu.Lock()
	g.calls = append(g.calls, gwCall{op: op, key: r.Key, at: time.Now(), err: err})
	g.mu.Unlock()
	return id, err
}

func (g *gw) Authorize(ctx context.Context, r gateway.Request) (string, error) {
	return g.do(ctx, "authorize", r, func() (string, error) { return g.Simulated.Authorize(ctx, r) })
}
func (g *gw) Capture(ctx context.Context, r gateway.Request) (string, error) {
	return g.do(ctx, "capture", r, func() (string, error) { return g.Simulated.Capture(ctx, r) })
}
func (g *gw) Settle(ctx context.Context, r gateway.Request) error {
	_, err := g.do(ctx, "settle", r, func() (string, error) { return "", g.Simulated.Settle(ctx, r) })
	return err
}
func (g *gw) Refund(ctx context.Context, r gateway.Request) (string, error) {
	return g.do(ctx, "refund", r, func() (string, error) { return g.Simulated.Refund(ctx, r) })
}
func (g *gw) Void(ctx context.Context, r gateway.Request) error {
	_, err := g.do(ctx, "void", r, func() (string, error) { return "", g.Simulated.Void(ctx, r) })
	return err
}

// callsTo returns the calls with key.
func (g *gw) callsTo(key string) []gwCall {
	g.mu.Lock()
	defer g.mu.Unlock()
	var out []gwCall
	for _, c := range g.calls {
		if c.key == key {
			out = append(out, c)
		}
	}
	return out
}

// total is how many calls the gateway got.
func (g *gw) total() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return len(g.calls)
}

// applied returns the effects the gateway applied for the order, as
// "kind key".
func (g *gw) applied(uid types.UID) []string {
	var out []string
	for _, op := range g.Applied() {
		if strings.HasPrefix(op.Key, string(uid)+"/") {
			out = append(out, op.Kind+" "+strings.TrimPrefix(op.Key, string(uid)+"/"))
		}
	}
	return out
}

func metav1ObjectMeta(ns, name string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Namespace: ns, Name: name}
}
