package statetag

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelgen/modelgen/model"
)

// owner builds a struct with a Phase field of a string type whose constants
// are the given values, carrying the tag.
func owner(tag string, values ...string) (*model.Type, *model.Field) {
	phase := &model.Type{Name: "Phase", TypeKind: model.TypeScalar, Pkg: &model.Package{Path: "example.com/p"}}
	for _, v := range values {
		phase.Enum = append(phase.Enum, model.EnumValue{GoName: "Phase" + v, Value: v})
	}
	f := &model.Field{GoName: "Phase", JSONName: "phase",
		Type:  &model.TypeRef{Kind: model.KindString, Named: phase, GoType: "Phase"},
		State: model.Tag{Value: tag, Pos: model.Pos{File: "types.go", Line: 3, Col: 10}, Set: true}}
	t := &model.Type{Name: "Status", TypeKind: model.TypeStruct, Pkg: phase.Pkg, Fields: []*model.Field{f}}
	return t, f
}

func TestResolve(t *testing.T) {
	typ, f := owner("initial=A;A|B->C:Stop[Ok];A->B:Go;B->A:Back", "A", "B", "C", "D")
	m, diags := Resolve(typ, f)
	if diags.HasErrors() || m == nil {
		t.Fatal(diags)
	}
	if got := strings.Join(m.StateValues(), ","); got != "A,B,C" {
		t.Errorf("states %s", got)
	}
	if len(diags) != 1 || diags[0].Severity != model.Warning || !strings.Contains(diags[0].Msg, "PhaseD") || diags[0].Pos.Col != 10 {
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
	ext, _ := json.Marshal(m.Extension())
	want := `{"initial":"A","name":"Phase","states":["A","B","C"],"transitions":[{"event":"Stop","from":"A","to":"C"},{"event":"Stop","from":"B","to":"C"},{"event":"Go","from":"A","to":"B"},{"event":"Back","from":"B","to":"A"}]}`
	if string(ext) != want {
		t.Errorf("extension %s", ext)
	}
}

func TestResolvePositions(t *testing.T) {
	typ, f := owner("initial=A;A->X:Go", "A", "B")
	_, diags := Resolve(typ, f)
	var found bool
	for _, d := range diags {
		if d.Severity == model.Error {
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
	m, diags := Resolve(typ, f)
	if len(diags) > 0 || m.Terminal("On") || m.Terminal("Off") {
		t.Errorf("a machine without terminal states: %v", diags)
	}
}

func TestOf(t *testing.T) {
	typ, _ := owner("initial=A;A->B:Go", "A", "B")
	if m := Of(typ); m == nil || m.Name != "Phase" {
		t.Errorf("Of = %v", m)
	}
	bad, _ := owner("A->B:Go", "A", "B")
	if Of(bad) != nil || Of(&model.Type{}) != nil {
		t.Error("Of returned a machine for a broken tag or no tag")
	}
}

func TestMachinesAndExtensions(t *testing.T) {
	typ, _ := owner("initial=A;A->B:Go", "A", "B")
	m := &model.Model{Packages: []*model.Package{typ.Pkg}}
	typ.Pkg.Types = []*model.Type{typ}
	machines, diags := Machines(m)
	if len(machines) != 1 || len(diags) > 0 {
		t.Fatalf("Machines: %v %v", machines, diags)
	}
	ext := Extensions(m)
	if _, ok := ext["example.com/p.Status"]["phase"]; !ok {
		t.Errorf("Extensions: %v", ext)
	}
}
