//go:build envtest

package e2e

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	eventsv1 "k8s.io/api/events/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/dynamic"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	"sigs.k8s.io/controller-runtime/pkg/config"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/yaml"

	slav1 "github.com/modelgen/modelgen/examples/sla/api/v1alpha1"
	slactrl "github.com/modelgen/modelgen/examples/sla/controller"
	"github.com/modelgen/modelgen/examples/sla/metrics"

	"github.com/modelgen/modelgen/internal/testkit"
)

// The SLA operator against a real kube-apiserver and a real Prometheus. The
// operator's clock is a manual clock the test sets; every evaluation sends
// that time to Prometheus, so the backfilled history (relative to t0, an
// hour ago) and the operator's time line up exactly.

func slaScheme(t *testing.T) *runtime.Scheme {
	t.Helper()
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{clientgoscheme.AddToScheme, slav1.AddToScheme} {
		if err := add(s); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func slaClient(t *testing.T) client.Client {
	t.Helper()
	c, err := client.New(restConfig, client.Options{Scheme: slaScheme(t)})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// manualClock reads what the test set; the operator's work queue polls it
// every 50ms while a time of this clock is ahead.
type manualClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *manualClock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = t
}

func (c *manualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *manualClock) Until(time.Time) time.Duration { return 50 * time.Millisecond }

// switchable is a metrics.Source the test can swap.
type switchable struct {
	current atomic.Pointer[metrics.Source]
}

func (s *switchable) set(src metrics.Source) { s.current.Store(&src) }
func (s *switchable) Instant(ctx context.Context, q string, t time.Time) (metrics.Sample, error) {
	return (*s.current.Load()).Instant(ctx, q, t)
}
func (s *switchable) Range(ctx context.Context, q string, start, end time.Time, step time.Duration) ([]metrics.Sample, error) {
	return (*s.current.Load()).Range(ctx, q, start, end, step)
}

// startSLAOperator runs the SLA operator until the test ends.
func startSLAOperator(t *testing.T, source metrics.Source, clock slactrl.Clock) {
	t.Helper()
	skip := true
	mgr, err := ctrl.NewManager(restConfig, ctrl.Options{
		Scheme:                 slaScheme(t),
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
		Controller:             config.Controller{SkipNameValidation: &skip},
	})
	if err != nil {
		t.Fatal(err)
	}
	r := &slactrl.Reconciler{Client: mgr.GetClient(), Metrics: source, Clock: clock, Recorder: mgr.GetEventRecorder("sla-operator")}
	if err := r.SetupWithManager(mgr); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mgr.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("manager: %v", err)
		}
	})
}

func newPrometheusSource(t *testing.T, url string) metrics.Source {
	t.Helper()
	p, err := metrics.NewPrometheus(url, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// checkoutContract is the walk's contract: 99.9%, degrade below 95% for 2m,
// recover at 99% for 5m, breach below 90% for 5m, evaluated every 15s over
// a 60s window.
func checkoutContract(name string) *slav1.SLAContract {
	return &slav1.SLAContract{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"},
		Spec: slav1.SLAContractSpec{
			Service: "checkout", Customer: "acme", Objective: 99.9,
			Query: slaQuery, WindowSeconds: 60, IntervalSeconds: 15,
			Thresholds: slav1.Thresholds{
				DegradeBelowPercent: 95, DegradeForSeconds: 120,
				RecoverAtPercent: 99, RecoverForSeconds: 300,
				BreachBelowPercent: 90, BreachForSeconds: 300,
			},
			Compensation: slav1.CompensationPolicy{Currency: "EUR", MonthlyFeeCents: 100_000,
				BaseCreditPercent: 10, CreditPercentPerPoint: 2, MaxCreditPercent: 50},
		},
	}
}

// slaWatch reads one contract and waits for what the test expects of it.
type slaWatch struct {
	t   *testing.T
	c   client.Client
	key types.NamespacedName
	t0  time.Time
}

func (w *slaWatch) get() *slav1.SLAContract {
	w.t.Helper()
	var got slav1.SLAContract
	if err := w.c.Get(context.Background(), w.key, &got); err != nil {
		w.t.Fatal(err)
	}
	return &got
}

func (w *slaWatch) describe(s *slav1.SLAContract) string {
	m := "no measurement"
	if s.Status.Measurement != nil {
		m = fmt.Sprintf("%v%% at t0+%v", s.Status.Measurement.AvailabilityPercent, s.Status.Measurement.Time.Sub(w.t0))
	}
	cond := meta.FindStatusCondition(s.Status.Conditions, slactrl.MetricsAvailable)
	c := "no MetricsAvailable"
	if cond != nil {
		c = fmt.Sprintf("MetricsAvailable=%s/%s: %s", cond.Status, cond.Reason, cond.Message)
	}
	return fmt.Sprintf("phase %q, %s, %s", s.Status.Phase, m, c)
}

// until waits for cond on the contract.
func (w *slaWatch) until(what string, cond func(*slav1.SLAContract) bool) *slav1.SLAContract {
	w.t.Helper()
	var last *slav1.SLAContract
	testkit.Eventually(w.t, what, func() (bool, string) {
		last = w.get()
		return cond(last), w.describe(last)
	})
	return last
}

// evaluatedAt waits for the evaluation at t0+d and checks the phase it led to.
func (w *slaWatch) evaluatedAt(d time.Duration, phase slav1.SLAPhase) *slav1.SLAContract {
	w.t.Helper()
	at := w.t0.Add(d)
	return w.until(fmt.Sprintf("the evaluation at t0+%v to leave phase %s", d, phase), func(s *slav1.SLAContract) bool {
		m := s.Status.Measurement
		return m != nil && m.Time.Time.Equal(at) && s.Status.Phase == phase
	})
}

func (w *slaWatch) wantSince(what string, got *metav1.Time, d time.Duration) {
	w.t.Helper()
	if got == nil || !got.Time.Equal(w.t0.Add(d)) {
		w.t.Fatalf("%s = %v, want t0+%v", what, got, d)
	}
}

// events counts the contract's Events by reason (a series counts each
// occurrence) and keeps their notes.
func (w *slaWatch) events() (map[string]int, map[string][]string) {
	w.t.Helper()
	var list eventsv1.EventList
	if err := w.c.List(context.Background(), &list, client.InNamespace(w.key.Namespace)); err != nil {
		w.t.Fatal(err)
	}
	counts, notes := map[string]int{}, map[string][]string{}
	for _, e := range list.Items {
		if e.Regarding.Kind != "SLAContract" || e.Regarding.Name != w.key.Name {
			continue
		}
		n := 1
		if e.Series != nil {
			n = int(e.Series.Count)
		}
		counts[e.Reason+"/"+e.Type] += n
		notes[e.Reason] = append(notes[e.Reason], e.Note)
	}
	return counts, notes
}

// wantEvents waits until the contract's Events are exactly want.
func (w *slaWatch) wantEvents(want map[string]int) map[string][]string {
	w.t.Helper()
	var notes map[string][]string
	testkit.Eventually(w.t, fmt.Sprintf("events %v", want), func() (bool, string) {
		var got map[string]int
		got, notes = w.events()
		return fmt.Sprint(got) == fmt.Sprint(want), fmt.Sprint(got)
	})
	return notes
}

func condition(s *slav1.SLAContract, typ string) metav1.Condition {
	if c := meta.FindStatusCondition(s.Status.Conditions, typ); c != nil {
		return *c
	}
	return metav1.Condition{}
}

// TestSLAContractWalk: with a real Prometheus serving the backfilled history,
// the contract walks pending -> active -> degraded -> active -> degraded ->
// breached -> resolved, each step at the exact evaluation the thresholds
// predict, with its status, compensation and Events; the API server then
// refuses to leave resolved.
func TestSLAContractWalk(t *testing.T) {
	t0 := time.Now().UTC().Truncate(time.Minute).Add(-time.Hour)
	url := startPrometheus(t, openMetrics(t0, slaHistory, historyLength))
	clock := &manualClock{now: t0.Add(-5 * time.Minute)}
	startSLAOperator(t, newPrometheusSource(t, url), clock)
	c := slaClient(t)
	ctx := context.Background()
	contract := checkoutContract("checkout-walk")
	if err := c.Create(ctx, contract); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Delete(ctx, contract) })
	w := &slaWatch{t: t, c: c, key: client.ObjectKeyFromObject(contract), t0: t0}

	// before the history: Prometheus has no data; the contract stays pending
	s := w.until("pending with NoData", func(s *slav1.SLAContract) bool {
		return s.Status.Phase == slav1.SLAPending && condition(s, slactrl.MetricsAvailable).Reason == "NoData"
	})
	if s.Status.Measurement != nil || condition(s, slactrl.MetricsAvailable).Status != metav1.ConditionFalse {
		t.Fatalf("pending without data: %s", w.describe(s))
	}

	// healthy: the first evaluation activates it
	clock.Set(t0.Add(5 * time.Minute))
	s = w.evaluatedAt(5*time.Minute, slav1.SLAActive)
	if s.Status.Measurement.AvailabilityPercent != 99.9 || condition(s, slactrl.Compliant).Status != metav1.ConditionTrue ||
		condition(s, slactrl.MetricsAvailable).Status != metav1.ConditionTrue || s.Status.ObservedGeneration != s.Generation {
		t.Fatalf("active: %s, conditions %+v", w.describe(s), s.Status.Conditions)
	}
	w.wantEvents(map[string]int{"Active/Normal": 1})

	// below 95% since t0+10m45s (the 60s window reaches the dip at 10m), for
	// 1m45s: still active; at exactly 2 minutes: degraded
	clock.Set(t0.Add(12*time.Minute + 30*time.Second))
	s = w.evaluatedAt(12*time.Minute+30*time.Second, slav1.SLAActive)
	w.wantSince("belowDegradeSince", s.Status.BelowDegradeSince, 10*time.Minute+45*time.Second)
	if s.Status.Measurement.AvailabilityPercent != 93 || s.Status.BelowBreachSince != nil {
		t.Fatalf("in the first dip: %s, belowBreachSince %v", w.describe(s), s.Status.BelowBreachSince)
	}
	clock.Set(t0.Add(12*time.Minute + 45*time.Second))
	s = w.evaluatedAt(12*time.Minute+45*time.Second, slav1.SLADegraded)
	if cond := condition(s, slactrl.Compliant); cond.Status != metav1.ConditionFalse || cond.Reason != "Degraded" {
		t.Fatalf("degraded: Compliant %+v", cond)
	}
	w.wantEvents(map[string]int{"Active/Normal": 1, "Degraded/Warning": 1})

	// at or above 99% since t0+14m: 4m45s is not enough, 5m is
	clock.Set(t0.Add(18*time.Minute + 45*time.Second))
	s = w.evaluatedAt(18*time.Minute+45*time.Second, slav1.SLADegraded)
	w.wantSince("recoverSince", s.Status.RecoverSince, 14*time.Minute)
	clock.Set(t0.Add(19 * time.Minute))
	w.evaluatedAt(19*time.Minute, slav1.SLAActive)
	w.wantEvents(map[string]int{"Active/Normal": 2, "Degraded/Warning": 1})

	// the second dip: below 95% since t0+20m30s, below 90% since t0+20m45s
	clock.Set(t0.Add(22*time.Minute + 15*time.Second))
	w.evaluatedAt(22*time.Minute+15*time.Second, slav1.SLAActive)
	clock.Set(t0.Add(22*time.Minute + 30*time.Second))
	s = w.evaluatedAt(22*time.Minute+30*time.Second, slav1.SLADegraded)
	w.wantSince("belowDegradeSince", s.Status.BelowDegradeSince, 20*time.Minute+30*time.Second)
	w.wantSince("belowBreachSince", s.Status.BelowBreachSince, 20*time.Minute+45*time.Second)
	w.wantEvents(map[string]int{"Active/Normal": 2, "Degraded/Warning": 2})

	clock.Set(t0.Add(25*time.Minute + 30*time.Second))
	s = w.evaluatedAt(25*time.Minute+30*time.Second, slav1.SLADegraded)
	if len(s.Status.Breaches) != 0 {
		t.Fatalf("breaches before the breach: %+v", s.Status.Breaches)
	}
	clock.Set(t0.Add(25*time.Minute + 45*time.Second))
	s = w.evaluatedAt(25*time.Minute+45*time.Second, slav1.SLABreached)
	want := slav1.BreachRecord{Since: metav1.NewTime(t0.Add(20*time.Minute + 45*time.Second)), DetectedAt: metav1.NewTime(t0.Add(25*time.Minute + 45*time.Second)),
		AvailabilityPercent: 85, CreditPercent: 39.8, CompensationCents: 39_800, Currency: "EUR"}
	if len(s.Status.Breaches) != 1 || !s.Status.Breaches[0].Since.Equal(&want.Since) || !s.Status.Breaches[0].DetectedAt.Equal(&want.DetectedAt) ||
		s.Status.Breaches[0].AvailabilityPercent != 85 || s.Status.Breaches[0].CreditPercent != 39.8 ||
		s.Status.Breaches[0].CompensationCents != 39_800 || s.Status.Breaches[0].Currency != "EUR" {
		t.Fatalf("breaches %+v, want [%+v]", s.Status.Breaches, want)
	}
	notes := w.wantEvents(map[string]int{"Active/Normal": 2, "Degraded/Warning": 2, "Breached/Warning": 1})
	if len(notes["Breached"]) != 1 || !strings.Contains(notes["Breached"][0], "compensation 398.00 EUR (39.8% of the monthly fee)") {
		t.Fatalf("Breached event notes %q", notes["Breached"])
	}

	// healthy again, but breached waits for the customer
	clock.Set(t0.Add(35 * time.Minute))
	time.Sleep(time.Second)
	if s = w.get(); s.Status.Phase != slav1.SLABreached {
		t.Fatalf("breached without acknowledgement: %s", w.describe(s))
	}
	patch := client.MergeFrom(s.DeepCopy())
	s.Spec.Acknowledgement = "ops@acme.example: credit noted"
	if err := c.Patch(ctx, s, patch); err != nil {
		t.Fatal(err)
	}
	s = w.until("resolved", func(s *slav1.SLAContract) bool { return s.Status.Phase == slav1.SLAResolved })
	if cond := condition(s, slactrl.Compliant); cond.Reason != "Resolved" || s.Status.ObservedGeneration != s.Generation || len(s.Status.Breaches) != 1 {
		t.Fatalf("resolved: %s, Compliant %+v, observedGeneration %d of %d", w.describe(s), cond, s.Status.ObservedGeneration, s.Generation)
	}
	w.wantEvents(map[string]int{"Active/Normal": 2, "Degraded/Warning": 2, "Breached/Warning": 1, "Resolved/Normal": 1})

	illegal := s.DeepCopy()
	illegal.Status.Phase = slav1.SLAActive
	err := c.Status().Update(ctx, illegal)
	if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), "phase cannot change from resolved to active") {
		t.Fatalf("resolved -> active: want Invalid, got %v", err)
	}
}

// TestSLAContractPrometheusFailures: while Prometheus is unreachable the
// phase and the since-timestamps stay, and MetricsAvailable says why; once
// it answers again the data moves the contract. A query Prometheus refuses
// is QueryFailed.
func TestSLAContractPrometheusFailures(t *testing.T) {
	t0 := time.Now().UTC().Truncate(time.Minute).Add(-time.Hour)
	url := startPrometheus(t, openMetrics(t0, slaHistory, historyLength))
	source := &switchable{}
	source.set(newPrometheusSource(t, url))
	// healthy from the first evaluation: the operator still writes pending
	// first, as the API server admits no other first phase
	clock := &manualClock{now: t0.Add(5 * time.Minute)}
	startSLAOperator(t, source, clock)
	c := slaClient(t)
	ctx := context.Background()
	contract := checkoutContract("checkout-unreachable")
	if err := c.Create(ctx, contract); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Delete(ctx, contract) })
	w := &slaWatch{t: t, c: c, key: client.ObjectKeyFromObject(contract), t0: t0}

	w.evaluatedAt(5*time.Minute, slav1.SLAActive)
	clock.Set(t0.Add(11 * time.Minute))
	before := w.evaluatedAt(11*time.Minute, slav1.SLAActive)
	w.wantSince("belowDegradeSince", before.Status.BelowDegradeSince, 10*time.Minute+45*time.Second)

	source.set(newPrometheusSource(t, "http://"+testkit.FreeAddr(t)))
	clock.Set(t0.Add(13 * time.Minute)) // the data would degrade it now
	s := w.until("MetricsAvailable=False/PrometheusUnreachable", func(s *slav1.SLAContract) bool {
		return condition(s, slactrl.MetricsAvailable).Reason == "PrometheusUnreachable"
	})
	time.Sleep(500 * time.Millisecond) // several more failed evaluations
	s = w.get()
	cond := condition(s, slactrl.MetricsAvailable)
	if s.Status.Phase != slav1.SLAActive || !s.Status.Measurement.Time.Equal(&before.Status.Measurement.Time) ||
		!s.Status.BelowDegradeSince.Equal(before.Status.BelowDegradeSince) ||
		cond.Status != metav1.ConditionFalse || !strings.Contains(cond.Message, "connection refused") {
		t.Fatalf("unreachable: %s, belowDegradeSince %v", w.describe(s), s.Status.BelowDegradeSince)
	}

	source.set(newPrometheusSource(t, url))
	s = w.evaluatedAt(13*time.Minute, slav1.SLADegraded)
	if condition(s, slactrl.MetricsAvailable).Status != metav1.ConditionTrue {
		t.Fatalf("after Prometheus came back: %s", w.describe(s))
	}

	bad := checkoutContract("checkout-bad-query")
	bad.Spec.Query = "sum(rate(sla_requests_total[$window]"
	if err := c.Create(ctx, bad); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Delete(ctx, bad) })
	wb := &slaWatch{t: t, c: c, key: client.ObjectKeyFromObject(bad), t0: t0}
	s = wb.until("MetricsAvailable=False/QueryFailed", func(s *slav1.SLAContract) bool {
		return condition(s, slactrl.MetricsAvailable).Reason == "QueryFailed"
	})
	if s.Status.Phase != slav1.SLAPending || !strings.Contains(condition(s, slactrl.MetricsAvailable).Message, "parse error") {
		t.Fatalf("bad query: %s", wb.describe(s))
	}
}

// TestSLAContractValidation: the API server refuses contracts whose
// objective is out of range or whose thresholds are out of order, accepts
// the sample, and refuses a phase that is not a step of the machine.
func TestSLAContractValidation(t *testing.T) {
	c := slaClient(t)
	ctx := context.Background()
	for name, c2 := range map[string]struct {
		mutate func(*slav1.SLAContract)
		want   string
	}{
		"objective above 100":   {func(s *slav1.SLAContract) { s.Spec.Objective = 100.5 }, "spec.objective"},
		"objective below 50":    {func(s *slav1.SLAContract) { s.Spec.Objective = 40 }, "spec.objective"},
		"recover below degrade": {func(s *slav1.SLAContract) { s.Spec.Thresholds.RecoverAtPercent = 94 }, "recoverAtPercent must be >= degradeBelowPercent"},
		"breach above degrade":  {func(s *slav1.SLAContract) { s.Spec.Thresholds.BreachBelowPercent = 96 }, "breachBelowPercent must be <= degradeBelowPercent"},
		"no duration":           {func(s *slav1.SLAContract) { s.Spec.Thresholds.BreachForSeconds = 0 }, "breachForSeconds"},
		"credit cap below base": {func(s *slav1.SLAContract) { s.Spec.Compensation.MaxCreditPercent = 5 }, "maxCreditPercent must be >= baseCreditPercent"},
	} {
		t.Run(name, func(t *testing.T) {
			s := checkoutContract("bad-" + strings.ReplaceAll(name, " ", "-"))
			c2.mutate(s)
			err := c.Create(ctx, s)
			if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), c2.want) {
				t.Fatalf("want an Invalid error saying %q, got %v", c2.want, err)
			}
		})
	}

	sample := loadSample(t)
	sample.Namespace = "default"
	if err := c.Create(ctx, sample); err != nil {
		t.Fatalf("the sample contract was rejected: %v", err)
	}
	t.Cleanup(func() { _ = c.Delete(ctx, sample) })

	// no operator runs here: the test writes the phase itself
	sample.Status.Phase = slav1.SLABreached
	err := c.Status().Update(ctx, sample)
	if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), "phase must start at pending") {
		t.Fatalf("empty -> breached: want Invalid, got %v", err)
	}
	sample.Status.Phase = slav1.SLAPending
	if err := c.Status().Update(ctx, sample); err != nil {
		t.Fatalf("empty -> pending: %v", err)
	}
	sample.Status.Phase = slav1.SLABreached
	err = c.Status().Update(ctx, sample)
	if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), "phase cannot change from pending to breached") {
		t.Fatalf("pending -> breached: want Invalid, got %v", err)
	}
	sample.Status.Phase = "paused"
	if err := c.Status().Update(ctx, sample); !apierrors.IsInvalid(err) {
		t.Fatalf("a phase that is not a state: want Invalid, got %v", err)
	}
}

func loadSample(t *testing.T) *slav1.SLAContract {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "sla", "config", "samples", "sla_v1alpha1_slacontract.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var s slav1.SLAContract
	if err := yaml.UnmarshalStrict(data, &s); err != nil {
		t.Fatal(err)
	}
	return &s
}

// TestSLADeployManifests: the API server accepts examples/sla/deploy, and an
// operator running as its ServiceAccount, with leader election in its
// namespace, has every permission it needs to take a contract from pending
// to active and report it with an Event.
func TestSLADeployManifests(t *testing.T) {
	ctx := context.Background()
	files, err := filepath.Glob(filepath.Join("..", "sla", "deploy", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no manifests: %v", err)
	}
	mapper, err := apiutil.NewDynamicRESTMapper(restConfig, mustHTTPClient(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
		for {
			var obj unstructured.Unstructured
			if err := dec.Decode(&obj.Object); err == io.EOF {
				break
			} else if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if len(obj.Object) == 0 {
				continue
			}
			m, err := mapper.RESTMapping(obj.GroupVersionKind().GroupKind(), obj.GroupVersionKind().Version)
			if err != nil {
				t.Fatalf("%s: %s: %v", f, obj.GetKind(), err)
			}
			var ri dynamic.ResourceInterface = dyn.Resource(m.Resource)
			if m.Scope.Name() == meta.RESTScopeNameNamespace {
				ri = dyn.Resource(m.Resource).Namespace(obj.GetNamespace())
			}
			if _, err := ri.Create(ctx, &obj, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
				t.Fatalf("%s: %s %s: %v", f, obj.GetKind(), obj.GetName(), err)
			}
		}
	}

	t0 := time.Now().UTC().Truncate(time.Minute).Add(-time.Hour)
	url := startPrometheus(t, openMetrics(t0, slaHistory, historyLength))
	sa := rest.CopyConfig(restConfig)
	sa.Impersonate = rest.ImpersonationConfig{UserName: "system:serviceaccount:sla-system:sla-operator",
		Groups: []string{"system:serviceaccounts", "system:serviceaccounts:sla-system", "system:authenticated"}}
	skip := true
	mgr, err := ctrl.NewManager(sa, ctrl.Options{
		Scheme:                  slaScheme(t),
		Metrics:                 metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress:  "0",
		Controller:              config.Controller{SkipNameValidation: &skip},
		LeaderElection:          true,
		LeaderElectionID:        "sla-operator.sla.example.com",
		LeaderElectionNamespace: "sla-system",
	})
	if err != nil {
		t.Fatal(err)
	}
	clock := &manualClock{now: t0.Add(5 * time.Minute)}
	r := &slactrl.Reconciler{Client: mgr.GetClient(), Metrics: newPrometheusSource(t, url), Clock: clock, Recorder: mgr.GetEventRecorder("sla-operator")}
	if err := r.SetupWithManager(mgr); err != nil {
		t.Fatal(err)
	}
	mctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- mgr.Start(mctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("manager: %v", err)
		}
	})

	c := slaClient(t)
	contract := checkoutContract("checkout-deployed")
	if err := c.Create(ctx, contract); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Delete(ctx, contract) })
	w := &slaWatch{t: t, c: c, key: client.ObjectKeyFromObject(contract), t0: t0}
	w.evaluatedAt(5*time.Minute, slav1.SLAActive)
	w.wantEvents(map[string]int{"Active/Normal": 1})
	var lease coordinationv1.Lease
	if err := c.Get(ctx, types.NamespacedName{Namespace: "sla-system", Name: "sla-operator.sla.example.com"}, &lease); err != nil {
		t.Fatalf("the leader-election lease: %v", err)
	}
}

func mustHTTPClient(t *testing.T) *http.Client {
	t.Helper()
	hc, err := rest.HTTPClientFor(restConfig)
	if err != nil {
		t.Fatal(err)
	}
	return hc
}
