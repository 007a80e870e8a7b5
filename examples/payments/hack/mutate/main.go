// Command mutate proves that the PaymentOrder envtest suite tests what it
// says: it removes one behaviour at a time from the operator, its API or
// its manifests, runs the test that names that behaviour, and expects it to
// fail. It restores every file it touched, also when interrupted.
//
//	cd examples && KUBEBUILDER_ASSETS=$(../hack/controlplane.sh) go run ./payments/hack/mutate [-run REGEXP]
//
// It exits 1 if a test still passes without its behaviour, or if a
// mutation no longer applies (the code it edits changed: update the table).
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// mutation removes one behaviour: it replaces old, which must occur exactly
// once in file, by new.
type mutation struct {
	behaviour  string
	file       string // relative to the examples module
	old, new   string
	test       string // the test that must fail
	regenerate bool   // run modelgen generate after the edit
}

var mutations = []mutation{
	{"status is written through the status subresource", "payments/controller/controller.go",
		"err := r.Client.Status().Update(ctx, next)\n\t\tif err == nil {", "err := r.Client.Update(ctx, next)\n\t\tif err == nil {", "TestValidOrderSettles", false},
	{"observedGeneration is set on every reconcile, not only on transitions", "payments/controller/controller.go",
		"if po.Status.ObservedGeneration == po.Generation || po.Status.Phase == \"\" {", "if true {", "TestValidOrderSettles", false},
	{"Ready is False while work is pending", "payments/controller/conditions.go",
		`set(v1alpha1.ConditionReady, false, "Progressing"`, `set(v1alpha1.ConditionReady, true, "Progressing"`, "TestValidOrderSettles", false},
	{"an Event for every transition", "payments/controller/controller.go",
		`r.Recorder.Eventf(po, nil, corev1.EventTypeNormal, reason, "Transition", "%s", note)`, "_, _ = reason, note", "TestValidOrderSettles", false},
	{"the transition counter", "payments/controller/controller.go",
		"transitionsTotal.WithLabelValues(string(from), string(to)).Inc()", "transitionsTotal.WithLabelValues(string(from), string(to))", "TestValidOrderSettles", false},
	{"metrics on controller-runtime's registry", "payments/controller/metrics.go",
		"metrics.Registry.MustRegister(", "_ = metrics.Registry\n\tprometheus.NewRegistry().MustRegister(", "TestValidOrderSettles", false},
	{"idempotency keys from UID, step and attempt (not a fresh key per call)", "payments/controller/controller.go",
		`return fmt.Sprintf("%s/%s/%d", uid, step, attempt)`, `return fmt.Sprintf("%s/%s/%d/%d", uid, step, attempt, time.Now().UnixNano())`, "TestGatewayFailureTakesRetryPath", false},
	{"a retry authorizes under a new key", "payments/controller/controller.go",
		`req.Key = Key(po.UID, "authorize", po.Status.Attempts)`, `req.Key = Key(po.UID, "authorize", 1)`, "TestGatewayFailureTakesRetryPath", false},
	{"a deadline on every gateway call", "payments/controller/controller.go",
		"ctx, cancel := context.WithTimeout(ctx, r.GatewayTimeout)", "ctx, cancel := context.WithCancel(ctx)", "TestGatewayFailureTakesRetryPath", false},
	{"exponential backoff after errors", "payments/controller/ratelimit.go",
		"NewTypedItemExponentialFailureRateLimiter[reconcile.Request](base, max)", "NewTypedItemExponentialFailureRateLimiter[reconcile.Request](time.Millisecond, time.Millisecond)", "TestGatewayFailureTakesRetryPath", false},
	{"the retry path (Processed -> Submitted)", "payments/controller/controller.go",
		"if gateway.IsDeclined(err) {\n\t\t// the clearing bounced", "if false {\n\t\t// the clearing bounced", "TestGatewayFailureTakesRetryPath", false},
	{"a 409 is retried (not dropped)", "payments/controller/controller.go",
		"\t\tconflictsTotal.Inc()\n\t\tfresh := ", "\t\treturn false, nil\n\t\tfresh := ", "TestConflictingUpdateIsRetried", false},
	{"a 409 re-reads (never overwrites)", "payments/controller/controller.go",
		"\t\tcur = fresh\n", "\t\tcur.ResourceVersion = fresh.ResourceVersion\n", "TestConflictingUpdateIsRetried", false},
	{"a decline is terminal (not retried)", "payments/controller/controller.go",
		"return reconcile.TerminalError(cause)", "return cause", "TestDeclinedOrderStops", false},
	{"the finalizer is added", "payments/controller/controller.go",
		"if controllerutil.ContainsFinalizer(po, v1alpha1.Finalizer) {\n\t\treturn nil\n\t}\n\tpatch", "if true {\n\t\treturn nil\n\t}\n\tpatch", "TestDeleteAuthorizedRunsFinalizer", false},
	{"the finalizer releases the authorization", "payments/controller/controller.go",
		`return "", r.Gateway.Void(ctx, req)`, `return "", nil`, "TestDeleteAuthorizedRunsFinalizer", false},
	{"a requested refund is performed", "payments/controller/controller.go",
		"if po.Spec.Refund == nil {", "if true {", "TestRefundThroughSpec", false},
	{"the tenant view prunes per role", "payments/tenantview/tenantview.go",
		"if err := h.Guard.FilterList(subject, list.Items); err != nil {", "if err := error(nil); err != nil {", "TestTenantViewPrunesPerRole", false},
	{"the tenant view lists only the caller's tenant", "payments/tenantview/tenantview.go",
		"opts := []client.ListOption{client.MatchingFields{TenantField: subject.Tenant}}", "opts := []client.ListOption{}", "TestTenantViewPrunesPerRole", false},
	{"leader election", "payments/operator/operator.go",
		"LeaderElection:                o.LeaderElection,", "LeaderElection:                false,", "TestLeaderElectionOneReconciles", false},
	{"main parses its flags (--kubeconfig)", "payments/cmd/payments-operator/main.go",
		"\tflag.Parse()\n", "\n", "TestDeployedOperatorSettlesSamples", false},
	{"probes are served", "payments/operator/operator.go",
		"HealthProbeBindAddress:        o.ProbeAddr,", `HealthProbeBindAddress:        "0",`, "TestDeployedOperatorSettlesSamples", false},
	{"the operator's role lets it patch its finalizer", "payments/controller/controller.go",
		"resources=paymentorders,verbs=get;list;watch;patch", "resources=paymentorders,verbs=get;list;watch", "TestDeployedOperatorSettlesSamples", true},
	{"the Deployment serves the webhook", "payments/config/manager/deployment.yaml",
		"            - --webhook\n", "", "TestDeployedOperatorSettlesSamples", false},
	{"the CRD's transition rule", "config/crd/bases/payments.example.com_paymentorders.yaml",
		"rule: '!has(oldSelf.phase) || has(self.phase) && (self.phase == oldSelf.phase", "rule: 'true || has(self.phase) && (self.phase == oldSelf.phase", "TestIllegalTransitionRefused", false},
	{"validate gte=0.01 on amount", "payments/api/v1alpha1/types.go",
		`validate:"required,gte=0.01,lte=1000000"`, `validate:"required,lte=1000000"`, "TestSpecRulesRefused", true},
	{"validate nefield=PayerID on payeeId", "payments/api/v1alpha1/types.go",
		`alphanum,nefield=PayerID"`, `alphanum"`, "TestSpecRulesRefused", true},
	{"the immutability marker on amount", "payments/api/v1alpha1/types.go",
		"\t// +kubebuilder:validation:XValidation:rule=\"self == oldSelf\",message=\"amount is immutable\"\n", "", "TestSpecRulesRefused", true},
	{"the operator serves the generated webhook (--webhook)", "payments/operator/operator.go",
		"if err := (&v1alpha1.PaymentOrderWebhook{Validate: validator.New()}).SetupWebhookWithManager(mgr); err != nil {",
		"if _, err := (&v1alpha1.PaymentOrderWebhook{Validate: validator.New()}).ValidateDelete(context.Background(), nil); err != nil {", "TestWebhookRefusesWhatTheCRDCannot", false},
	{"the webhook configuration fails closed (failurePolicy: Fail)", "config/webhook/payments.example.com_v1alpha1_manifests.yaml",
		"failurePolicy: Fail", "failurePolicy: Ignore", "TestWebhookRefusesWhatTheCRDCannot", false},
	{"validate uppercase on currency, enforced through the webhook", "payments/api/v1alpha1/types.go",
		`alpha,uppercase,iso4217"`, `alpha,iso4217"`, "TestWebhookRefusesWhatTheCRDCannot", true},
	{"the amount's conversion refuses what would not come back as written", "payments/api/v1alpha1/amount.go",
		" || units/scale != in.Amount {", " {", "TestPaymentOrderConversion", false},
	{"the amount's conversion to v1 carries the currency", "payments/api/v1alpha1/amount.go",
		"out.Amount = v1.Money{Units: int32(units), Currency: in.Currency}", "out.Amount = v1.Money{Units: int32(units)}", "TestPaymentOrderConversion", false},
	{"the immutability marker on v1's amount", "payments/api/v1/types.go",
		"\t// +kubebuilder:validation:XValidation:rule=\"self == oldSelf\",message=\"amount is immutable\"\n\tAmount Money", "\tAmount Money", "TestPaymentOrderConversion", true},
	{"the migration rewrites every stored object", "payments/migration/migration.go",
		"if err := rewrite(ctx, c, &list.Items[i]); err != nil {", "if err := error(nil); err != nil {", "TestPaymentOrderStorageMigration", false},
	{"the operator migrates with --migrate-storage", "payments/operator/operator.go",
		"if o.MigrateStorage {", "if false {", "TestPaymentOrderStorageMigration", false},
}

// generated lists what modelgen may rewrite for the payments API.
var generated = []string{"payments/api/v1alpha1/*", "payments/api/v1alpha1/docs/*", "payments/api/v1/*", "payments/api/v1/docs/*", "config/crd/bases/payments.*", "config/crd/patches/webhook_in_paymentorders.yaml", "config/rbac/payments.*", "config/webhook/payments.*", "config/policy/payments.*", "payments/config/rbac/runtime_role.yaml"}

func main() {
	run := flag.String("run", "", "only the mutations whose behaviour or test matches this regexp")
	flag.Parse()
	os.Exit(mutateAll(*run))
}

func mutateAll(filter string) int {
	re, err := regexp.Compile(filter)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	if os.Getenv("KUBEBUILDER_ASSETS") == "" {
		fmt.Fprintln(os.Stderr, "KUBEBUILDER_ASSETS is not set: KUBEBUILDER_ASSETS=$(../hack/controlplane.sh) go run ./payments/hack/mutate")
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var selected []mutation
	tests := map[string]bool{}
	for _, m := range mutations {
		if re.MatchString(m.behaviour) || re.MatchString(m.test) {
			selected = append(selected, m)
			tests[m.test] = true
		}
	}
	// a test that fails anyway proves nothing: run them unmutated first
	names := make([]string, 0, len(tests))
	for name := range tests {
		names = append(names, name)
	}
	if out, err := goTest(ctx, "^("+strings.Join(names, "|")+")$"); err != nil {
		fmt.Printf("the tests fail without any mutation:\n%s", out)
		return 1
	}
	bad := 0
	for _, m := range selected {
		start := time.Now()
		verdict := check(ctx, m)
		fmt.Printf("%-8s %-34s without %s (%.0fs)\n", verdict, m.test, m.behaviour, time.Since(start).Seconds())
		if verdict != "FAILS" {
			bad++
		}
		if ctx.Err() != nil {
			return 1
		}
	}
	if bad > 0 {
		fmt.Printf("%d mutation(s) did not make their test fail\n", bad)
		return 1
	}
	return 0
}

// check applies m, runs its test and restores every file; it returns FAILS
// (the test caught the mutation), PASSES (it did not) or STALE.
func check(ctx context.Context, m mutation) string {
	saved, err := snapshot(append([]string{m.file}, generated...))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return "ERROR"
	}
	defer restore(saved)
	src := saved[m.file]
	if bytes.Count(src, []byte(m.old)) != 1 {
		return "STALE"
	}
	if err := os.WriteFile(m.file, bytes.Replace(src, []byte(m.old), []byte(m.new), 1), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return "ERROR"
	}
	if m.regenerate {
		gen := exec.CommandContext(ctx, "go", "run", "./cmd/modelgen", "generate", "./examples/...")
		gen.Dir = ".."
		if out, err := gen.CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "modelgen generate: %v\n%s", err, out)
			return "ERROR"
		}
	}
	out, err := goTest(ctx, "^"+m.test+"$")
	switch {
	case err == nil:
		return "PASSES"
	case strings.Contains(string(out), "--- FAIL: "+m.test):
		return "FAILS"
	default: // a build failure is no proof
		fmt.Fprintf(os.Stderr, "%s did not run:\n%s", m.test, out)
		return "ERROR"
	}
}

// goTest runs the envtest tests matching run.
func goTest(ctx context.Context, run string) ([]byte, error) {
	return exec.CommandContext(ctx, "go", "test", "-tags", "envtest", "-count=1", "-timeout", "10m", "-run", run, "./e2e/payments/").CombinedOutput()
}

func snapshot(patterns []string) (map[string][]byte, error) {
	saved := map[string][]byte{}
	for _, p := range patterns {
		files, err := filepath.Glob(p)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			if st, err := os.Stat(f); err != nil || st.IsDir() {
				continue
			}
			data, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			saved[f] = data
		}
	}
	if _, ok := saved[patterns[0]]; !ok {
		return nil, fmt.Errorf("%s: not found (run from examples/)", patterns[0])
	}
	return saved, nil
}

func restore(saved map[string][]byte) {
	for f, data := range saved {
		if err := os.WriteFile(f, data, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "restoring", f, err)
		}
	}
}
