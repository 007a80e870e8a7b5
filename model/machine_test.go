package model

import (
	"strings"
	"testing"
)

// owner builds a struct with a Phase field of a string type whose constants
// are the given values, carrying the tag.
func owner(tag string, values ...string) (*Type, *Field) {
	phase := &Type{Name: "Phase", TypeKind: TypeScalar, Pkg: &Package{Path: "example.com/p"}}
	for _, v := range values {
		phase.Enum = append(phase.Enum, EnumValue{GoName: "Phase" + v, Value: v})
	}
	f := &Field{GoName: "Phase", JSONName: "phase",
		Type:     &TypeRef{Kind: KindString, Named: phase, GoType: "Phase"},
		StateTag: Tag{Value: tag, Pos: Pos{File: "types.go", Line: 3, Col: 10}, Set: true}}
	t := &Type{Name: "Status", TypeKind: TypeStruct, Pkg: phase.Pkg, Fields: []*Field{f}}
	return t, f
}

func TestResolve(t *testing.T) {
	typ, f := owner("initial=A;A|B->C:Stop[Ok];A->B:Go;B->A:Back", "A", "B", "C", "D")
	m, diags := resolveMachine(typ, f)
	if diags.HasErrors() || m == nil {
		t.Fatal(diags)
	}
	if got := strings.Join(m.StateValues(), ","); got != "A,B,C" {
		t.Errorf("states %s", got)
	}
	if len(diags) != 1 || diags[0].Severity != Warning || !strings.Contains(diags[0].Msg, "PhaseD") || diags[0].Pos.Col != 10 {
		t.Errorf("want one warning about PhaseD at the tag, got %v", diags)
	}
	if strings.Join(m.Events, ",") != "Stop,Go,Back" || strings.Join(m.Guards, ",") != "Ok" {
		t.Errorf("events %v guards %v", m.Events, m.Guards)
	}
	if !m.Terminal("C") || m.Terminal("A") || m.Terminal("nope") || !m.Guarded("Stop") || m.Guarded("Go") {
		t.Error("Terminal or Guarded is wrong")
	}
	if len(m.From("A")) != 2 {
		t.Errorf("From(A) = %v", m.From("A"))
	}
}

func TestResolvePositions(t *testing.T) {
	typ, f := owner("initial=A;A->X:Go", "A", "B")
	_, diags := resolveMachine(typ, f)
	var found bool
	for _, d := range diags {
		if d.Severity == Error {
			found = true
			if d.Pos.Col != 10+len("initial=A;A->") || !strings.Contains(d.Msg, `"X" is not a Phase constant`) {
				t.Errorf("diagnostic %v", d)
			}
		}
	}
	if !found {
		t.Error("no error for X")
	}
}

func TestRunsForever(t *testing.T) {
	typ, f := owner("initial=On;On->Off:Toggle;Off->On:Toggle", "On", "Off")
	m, diags := resolveMachine(typ, f)
	if len(diags) > 0 || m.Terminal("On") || m.Terminal("Off") {
		t.Errorf("a machine without terminal states: %v", diags)
	}
}

func TestMachinesAndExtensions(t *testing.T) {
	typ, f := owner("initial=A;A->B:Go", "A", "B")
	m := &Model{Packages: []*Package{typ.Pkg}}
	typ.Pkg.Types = []*Type{typ}
	machines, diags := resolveMachines(m)
	if len(machines) != 1 || len(diags) > 0 || machines[0].Field != f {
		t.Fatalf("resolveMachines: %v %v", machines, diags)
	}
	bad, _ := owner("A->B:Go", "A", "B")
	bad.Pkg.Types = []*Type{bad}
	if machines, diags := resolveMachines(&Model{Packages: []*Package{bad.Pkg}}); len(machines) != 0 || !diags.HasErrors() {
		t.Errorf("a broken tag gave machines %v, diagnostics %v", machines, diags)
	}
}
