package statemachine_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/gen/crd"
	"github.com/modelgen/modelgen/internal/crdjudge"
	"github.com/modelgen/modelgen/model"
	"github.com/modelgen/modelgen/schema"
)

var (
	examples = sync.OnceValues(func() (*model.Model, error) {
		return model.Load(model.Config{Dir: "../../examples", Patterns: []string{"./payments/...", "./sla/..."}})
	})
	// mirrors are the examples' machines in testdata/crd.
	mirrors = sync.OnceValues(func() (*model.Model, error) {
		return model.Load(model.Config{Dir: "testdata/crd", Patterns: []string{"./..."}})
	})
)

// exampleCRDs builds the CRDs of the examples' machines (their mirrors in
// testdata/crd) as the CLI does (the schema carries the machine); the CRD backend runs the API
// server's own CRD validation on them (structural schema, CEL compilation,
// static cost budget).
func exampleCRDs(t *testing.T) map[string]*apiext.CustomResourceDefinition {
	t.Helper()
	m := load(t, mirrors)
	c := &gen.Context{Model: m, Configs: map[string]gen.Config{}}
	results, diags := crd.Build(c)
	if diags.HasErrors() {
		t.Fatalf("the examples' CRDs are invalid:\n%v", diags)
	}
	out := map[string]*apiext.CustomResourceDefinition{}
	for _, r := range results {
		out[r.CRD.Spec.Names.Kind] = r.CRD
	}
	return out
}

// validator is the API server's validation of a custom resource
// (internal/crdjudge) with a valid spec for every object.
type validator struct {
	server *crdjudge.Server
	spec   map[string]any
}

func newValidator(t *testing.T, def *apiext.CustomResourceDefinition, spec map[string]any) validator {
	t.Helper()
	s, err := crdjudge.New(def, def.Spec.Versions[0].Name)
	if err != nil {
		t.Fatal(err)
	}
	return validator{s, spec}
}

// update validates a status change; an empty phase leaves it out, a nil old
// status is a create.
func (v validator) update(oldPhase *string, newPhase string) field.ErrorList {
	obj := v.object(&newPhase)
	if oldPhase == nil {
		return v.server.Create(obj)
	}
	return v.server.Update(obj, v.object(oldPhase))
}

func (v validator) object(phase *string) map[string]any {
	status := map[string]any{}
	if phase != nil && *phase != "" {
		status["phase"] = *phase
	}
	fields := map[string]any{"status": status}
	if v.spec != nil {
		fields["spec"] = v.spec
	}
	return v.server.Object(fields)
}

var (
	paymentSpec = map[string]any{"reference": "invoice 42"}
	slaSpec     = map[string]any{"service": "checkout"}
)

func ptr(s string) *string { return &s }

func TestCRDEnforcesPaymentOrderMachine(t *testing.T) {
	po := exampleCRDs(t)["PaymentOrder"]
	v := newValidator(t, po, paymentSpec)
	for _, c := range []struct {
		name     string
		old      *string
		new      string
		wantErrs []string // each must appear in one error; none means accepted
	}{
		{"legal transition", ptr("Submitted"), "Authorized", nil},
		{"legal retry", ptr("Processed"), "Submitted", nil},
		{"legal from settled", ptr("Settled"), "Refunded", nil},
		{"no-op update", ptr("Settled"), "Settled", nil},
		{"no-op update without phase", ptr(""), "", nil},
		{"illegal skip", ptr("Submitted"), "Settled", []string{"phase cannot change from Submitted to Settled"}},
		{"out of a terminal state", ptr("Refunded"), "Submitted", []string{"phase cannot change from Refunded to Submitted"}},
		{"backwards", ptr("Authorized"), "Submitted", []string{"phase cannot change from Authorized to Submitted"}},
		{"clearing the phase", ptr("Processed"), "", []string{"phase cannot be cleared once set (it was Processed)"}},
		{"create at the initial state", nil, "Submitted", nil},
		{"create without a phase", nil, "", nil},
		{"create past the initial state", nil, "Settled", []string{"phase must start at Submitted, the initial state of the PaymentPhase state machine, not Settled"}},
		{"first phase past the initial state", ptr(""), "Processed", []string{"phase must start at Submitted", "not Processed"}},
		{"first phase at the initial state", ptr(""), "Submitted", nil},
		// the enum error blocks the CEL rules, as on a real server
		{"not a state", ptr("Submitted"), "Lost", []string{"Unsupported value: \"Lost\"", "some validation rules were not checked"}},
		{"create with a non-state", nil, "Lost", []string{"Unsupported value: \"Lost\"", "some validation rules were not checked"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			errs := v.update(c.old, c.new)
			if len(c.wantErrs) == 0 {
				if len(errs) > 0 {
					t.Fatalf("rejected: %v", errs)
				}
				return
			}
			if len(errs) == 0 {
				t.Fatalf("accepted, want %q", c.wantErrs)
			}
			for _, e := range errs {
				if e.Type == field.ErrorTypeInternal || strings.Contains(e.Detail, "no such key") {
					t.Fatalf("the rule crashed: %v", e)
				}
			}
			for _, want := range c.wantErrs {
				if !strings.Contains(errs.ToAggregate().Error(), want) {
					t.Errorf("errors %v do not say %q", errs, want)
				}
			}
			for _, e := range errs {
				if e.Field != "status.phase" && !strings.Contains(e.Detail, "some validation rules were not checked") {
					t.Errorf("the error points at %s, want status.phase", e.Field)
				}
			}
		})
	}
}

func TestCRDEnforcesSLAMachine(t *testing.T) {
	sla := exampleCRDs(t)["SLA"]
	v := newValidator(t, sla, slaSpec)
	steps := []string{"pending", "active", "degraded", "active", "degraded", "breached", "resolved"}
	for i := 1; i < len(steps); i++ {
		if errs := v.update(&steps[i-1], steps[i]); len(errs) > 0 {
			t.Errorf("%s -> %s rejected: %v", steps[i-1], steps[i], errs)
		}
	}
	for _, bad := range [][2]string{{"pending", "breached"}, {"resolved", "active"}, {"breached", "active"}, {"active", "pending"}} {
		errs := v.update(&bad[0], bad[1])
		want := fmt.Sprintf("phase cannot change from %s to %s", bad[0], bad[1])
		if len(errs) == 0 || !strings.Contains(errs.ToAggregate().Error(), want) {
			t.Errorf("%s -> %s: %v, want %q", bad[0], bad[1], errs, want)
		}
	}
}

func TestCRDCarriesEnumAndDiagram(t *testing.T) {
	po := exampleCRDs(t)["PaymentOrder"]
	phase := po.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["status"].Properties["phase"]
	var enum []string
	for _, e := range phase.Enum {
		enum = append(enum, string(e.Raw))
	}
	if strings.Join(enum, ",") != `"Submitted","Authorized","Processed","Settled","Refunded"` {
		t.Errorf("enum %v", enum)
	}
	if !strings.Contains(phase.Description, "stateDiagram-v2\n    [*] --> Submitted\n") {
		t.Errorf("description has no diagram:\n%s", phase.Description)
	}
}

// bigMachine is a synthetic machine over n states s0..s(n-1): a chain with a
// way back to the start from every state (dense: from every state to every
// other one).
func bigMachine(n int, dense bool) *model.Machine {
	m := &model.Machine{Name: "Big", Field: &model.Field{GoName: "Phase", JSONName: "phase"}, Initial: "s0"}
	for i := 0; i < n; i++ {
		m.States = append(m.States, model.MachineState{Value: fmt.Sprintf("state-number-%02d", i)})
	}
	m.Initial = m.States[0].Value
	for i := range m.States {
		for j := range m.States {
			if i == j || !dense && j != i+1 && j != 0 {
				continue
			}
			m.Transitions = append(m.Transitions, model.MachineTransition{From: m.States[i].Value, Event: fmt.Sprintf("To%d", j), To: m.States[j].Value})
		}
	}
	return m
}

// crdFor wraps a machine's status schema in a minimal CRD.
func crdFor(m *model.Machine) *apiext.CustomResourceDefinition {
	status := apiext.JSONSchemaProps{
		Type:         "object",
		Properties:   map[string]apiext.JSONSchemaProps{"phase": {Type: "string", Enum: schema.MachineEnum(m)}},
		XValidations: schema.MachineRules(m),
	}
	return &apiext.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "bigs.example.com"},
		Spec: apiext.CustomResourceDefinitionSpec{
			Group: "example.com",
			Names: apiext.CustomResourceDefinitionNames{Plural: "bigs", Singular: "big", Kind: "Big", ListKind: "BigList"},
			Scope: apiext.NamespaceScoped,
			Versions: []apiext.CustomResourceDefinitionVersion{{
				Name: "v1", Served: true, Storage: true,
				Subresources: &apiext.CustomResourceSubresources{Status: &apiext.CustomResourceSubresourceStatus{}},
				Schema: &apiext.CustomResourceValidation{OpenAPIV3Schema: &apiext.JSONSchemaProps{
					Type:       "object",
					Properties: map[string]apiext.JSONSchemaProps{"status": status},
				}},
			}},
		},
	}
}

// TestCostBudgetForLargeMachines compiles the rules of machines of 30 and
// more states with the API server's CRD validation, which estimates each
// rule's cost and refuses it over the limit, and reports the estimates.
func TestCostBudgetForLargeMachines(t *testing.T) {
	for _, c := range []struct {
		states int
		dense  bool
	}{{30, false}, {30, true}, {64, false}, {40, true}} {
		m := bigMachine(c.states, c.dense)
		def := crdFor(m)
		if errs := crdjudge.CheckDefinition(def); len(errs) > 0 {
			t.Errorf("%d states (%d transitions): the API server refuses the CRD: %v", c.states, len(m.Transitions), errs)
			continue
		}
		cost := ruleCosts(t, def)
		t.Logf("%d states, %d transitions: estimated cost %v (limit %d per rule)", c.states, len(m.Transitions), cost, validation.StaticEstimatedCostLimit)
		v := newValidator(t, def, nil)
		last := m.States[len(m.States)-1].Value
		if errs := v.update(&last, m.States[0].Value); len(errs) > 0 {
			t.Errorf("%d states: the way back is refused: %v", c.states, errs)
		}
		if !c.dense {
			if errs := v.update(&m.States[1].Value, last); len(errs) == 0 {
				t.Errorf("%d states: an illegal jump is accepted", c.states)
			}
		}
	}
}

// ruleCosts compiles the rules as the API server does and returns each
// rule's estimated maximum cost.
func ruleCosts(t *testing.T, def *apiext.CustomResourceDefinition) []uint64 {
	t.Helper()
	rules, err := crdjudge.Rules(def, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rules) == 0 {
		t.Fatal("the CRD has no rules")
	}
	var costs []uint64
	for _, r := range rules {
		if r.Refused != "" {
			t.Fatalf("rule %q does not compile: %s", r.Rule, r.Refused)
		}
		costs = append(costs, r.MaxCost)
	}
	return costs
}

// TestCRDOldObjectWithoutStatus: when the old object has no status at all
// the transition rule does not run, and the initial rule still holds.
func TestCRDOldObjectWithoutStatus(t *testing.T) {
	po := exampleCRDs(t)["PaymentOrder"]
	v := newValidator(t, po, paymentSpec)
	for phase, ok := range map[string]bool{"Submitted": true, "Settled": false} {
		old := v.object(nil)
		delete(old, "status")
		errs := v.server.Update(v.object(ptr(phase)), old)
		if (len(errs) == 0) != ok {
			t.Errorf("no old status, new phase %s: %v", phase, errs)
		}
	}
}
