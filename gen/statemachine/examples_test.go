package statemachine_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/gen/statemachine"
	"github.com/modelgen/modelgen/openapi"
	"github.com/modelgen/modelgen/openapi/ext"
)

// TestExamplesAreCurrent checks that the examples' generated machines and
// diagrams are what the generator makes of their tags today.
func TestExamplesAreCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the examples module, about a minute (-short); hack/update.sh regenerates the examples and CI fails on a diff")
	}
	m := load(t, examples)
	files, diags := statemachine.Generator{}.Generate(&gen.Context{Model: m, Configs: map[string]gen.Config{}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if len(files) != 6 {
		t.Errorf("%d files, want a Go file and a diagram for each of the three machines (payments v1alpha1 and v1, sla)", len(files))
	}
	for _, f := range files {
		old, err := os.ReadFile(f.Path)
		if err != nil || !bytes.Equal(old, f.Data) {
			t.Errorf("%s is stale: run go run ./cmd/modelgen generate ./examples/...", f.Path)
		}
	}
}

// The examples' machines, exercised through their generated methods. The
// tests are overlaid onto the example packages (go test -overlay), so the
// examples module stays free of generator tests.
const paymentsTest = `package v1alpha1

import (
	"errors"
	"testing"

	"github.com/modelgen/modelgen/statemachine"
)

func TestPaymentOrderMachine(t *testing.T) {
	var s PaymentOrderStatus
	s.InitPhase()
	steps := []func() error{s.Authorize, s.Process, s.Retry, s.Authorize, s.Process, s.Settle, s.Refund}
	want := []PaymentPhase{PhaseAuthorized, PhaseProcessed, PhaseSubmitted, PhaseAuthorized, PhaseProcessed, PhaseSettled, PhaseRefunded}
	for i, step := range steps {
		if err := step(); err != nil || s.Phase != want[i] {
			t.Fatalf("step %d: %v, phase %s, want %s", i, err, s.Phase, want[i])
		}
	}
	err := s.Authorize()
	var te *statemachine.TransitionError
	if !errors.As(err, &te) || te.Reason != statemachine.Terminal || te.Machine != "PaymentPhase" || te.State != "Refunded" || te.Event != "Authorize" {
		t.Fatalf("Authorize from Refunded: %v", err)
	}
	s.Phase = PhaseSubmitted
	if err := s.Settle(); !errors.Is(err, statemachine.ErrNoTransition) || s.Phase != PhaseSubmitted {
		t.Fatalf("Settle from Submitted: %v", err)
	}
	if !s.CanAuthorize() || s.CanRefund() {
		t.Error("Can queries")
	}
}
`

const slaTest = `package v1alpha1

import (
	"errors"
	"testing"

	"github.com/modelgen/modelgen/statemachine"
)

// audit admits every guard except the ones named in refuse.
type audit struct {
	SLAPhaseNoHooks
	refuse  string
	entered []SLAPhase
}

func (a *audit) guard(name string) error {
	if name == a.refuse {
		return errors.New(name + " does not hold")
	}
	return nil
}
func (a *audit) Healthy(*SLAContractStatus, SLAPhaseTransition) error      { return a.guard("Healthy") }
func (a *audit) DegradeHeld(*SLAContractStatus, SLAPhaseTransition) error  { return a.guard("DegradeHeld") }
func (a *audit) RecoverHeld(*SLAContractStatus, SLAPhaseTransition) error  { return a.guard("RecoverHeld") }
func (a *audit) BreachHeld(*SLAContractStatus, SLAPhaseTransition) error   { return a.guard("BreachHeld") }
func (a *audit) Acknowledged(*SLAContractStatus, SLAPhaseTransition) error { return a.guard("Acknowledged") }
func (a *audit) OnEnter(s *SLAContractStatus, t SLAPhaseTransition)        { a.entered = append(a.entered, t.To) }

func TestSLAMachine(t *testing.T) {
	s := SLAContractStatus{Phase: SLAPending}
	a := &audit{}
	for _, fire := range []func(SLAPhaseHooks) error{s.ActivateWith, s.DegradeWith, s.RecoverWith, s.DegradeWith, s.BreachWith, s.ResolveWith} {
		if err := fire(a); err != nil {
			t.Fatal(err)
		}
	}
	if s.Phase != SLAResolved || len(a.entered) != 6 {
		t.Fatalf("phase %s, entered %v", s.Phase, a.entered)
	}
	s.Phase = SLADegraded
	a.refuse = "BreachHeld"
	if err := s.BreachWith(a); !errors.Is(err, statemachine.ErrGuardRefused) || s.Phase != SLADegraded {
		t.Fatalf("Breach with BreachHeld refusing: %v, phase %s", err, s.Phase)
	}
	s.Phase = SLAPending
	if err := s.FirePhase(SLAPhaseEventBreach, a); !errors.Is(err, statemachine.ErrNoTransition) {
		t.Fatalf("Breach from pending: %v", err)
	}
}
`

func TestExamplesMachines(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go test on the examples' API packages, over a minute (-short)")
	}
	dir := t.TempDir()
	replace := map[string]string{}
	for pkg, src := range map[string]string{
		"../../examples/payments/api/v1alpha1": paymentsTest,
		"../../examples/sla/api/v1alpha1":      slaTest,
	} {
		tmp := filepath.Join(dir, strings.ReplaceAll(strings.TrimPrefix(pkg, "../../"), "/", "_")+"_test.go")
		if err := os.WriteFile(tmp, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		abs, _ := filepath.Abs(filepath.Join(pkg, "zz_statemachine_overlay_test.go"))
		replace[abs] = tmp
	}
	overlay, _ := json.Marshal(map[string]any{"Replace": replace})
	overlayFile := filepath.Join(dir, "overlay.json")
	if err := os.WriteFile(overlayFile, overlay, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "test", "-v", "-count=1", "-overlay", overlayFile, "-run", "Machine", "./payments/api/v1alpha1", "./sla/api/v1alpha1")
	cmd.Dir = "../../examples"
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestPaymentOrderMachine") || !strings.Contains(string(out), "--- PASS: TestSLAMachine") {
		t.Fatalf("go test on the examples: %v\n%s", err, out)
	}
}

func TestExtensions(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the examples module, about a minute (-short)")
	}
	exts := map[string]any{}
	for _, mc := range load(t, examples).Machines {
		exts[mc.Owner.Pkg.Path+"."+mc.Owner.Name] = openapi.Extensions(mc.Field)[ext.StateMachineName]
	}
	want := `{"initial":"Submitted","name":"PaymentPhase","states":["Submitted","Authorized","Processed","Settled","Refunded"],` +
		`"transitions":[{"event":"Authorize","from":"Submitted","to":"Authorized"},{"event":"Process","from":"Authorized","to":"Processed"},` +
		`{"event":"Settle","from":"Processed","to":"Settled"},{"event":"Retry","from":"Processed","to":"Submitted"},{"event":"Refund","from":"Settled","to":"Refunded"}],"version":1}`
	// the same machine in both versions of payments
	for _, version := range []string{"v1alpha1", "v1"} {
		if got, _ := json.Marshal(exts["github.com/modelgen/modelgen/examples/payments/api/"+version+".PaymentOrderStatus"]); string(got) != want {
			t.Errorf("PaymentOrderStatus.phase extension of %s:\n%s\nwant\n%s", version, got, want)
		}
	}
	if _, ok := exts["github.com/modelgen/modelgen/examples/sla/api/v1alpha1.SLAContractStatus"]; !ok || len(exts) != 3 {
		t.Errorf("extensions: %v", exts)
	}
}

// TestTestdataMirrorsExamples keeps the CEL tests' mirrors of the example
// machines (testdata/crd) in step with the examples' own tags.
func TestTestdataMirrorsExamples(t *testing.T) {
	for example, mirror := range map[string]string{
		"../../examples/payments/api/v1alpha1/types.go": "testdata/crd/payments/types.go",
		"../../examples/sla/api/v1alpha1/types.go":      "testdata/crd/sla/types.go",
	} {
		want, got := stateTags(t, example), stateTags(t, mirror)
		if len(want) != 1 || strings.Join(want, "") != strings.Join(got, "") {
			t.Errorf("the state tag of %s is %q, its mirror %s has %q", example, want, mirror, got)
		}
	}
}

func stateTags(t *testing.T, file string) []string {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var tags []string
	for _, part := range strings.Split(string(src), `state:"`)[1:] {
		tags = append(tags, part[:strings.IndexByte(part, '"')])
	}
	return tags
}
