package schema

import (
	"strings"
	"testing"

	"github.com/modelgen/modelgen/model"
)

// TestEveryKeywordLowers audits the lowering table against the registry,
// both ways: every keyword of class Schema or CEL has a lowering, no
// runtime-only or structural keyword has one, and every row names a
// registered keyword.
func TestEveryKeywordLowers(t *testing.T) {
	lowered := 0
	for _, k := range model.Keywords() {
		switch k.Class() {
		case model.Schema, model.CEL:
			if !HasLowering(k.Name()) {
				t.Errorf("%q is class %s but has no lowering: the schemas would not carry it", k.Name(), k.Class())
			}
			lowered++
		default:
			if HasLowering(k.Name()) {
				t.Errorf("%q is class %s but has a lowering that no one calls on purpose", k.Name(), k.Class())
			}
		}
	}
	for name := range lowerings() {
		if _, ok := model.Lookup(name); !ok {
			t.Errorf("the lowering table has %q, which the registry does not define", name)
		}
	}
	if lowered < 90 {
		t.Errorf("only %d keywords lower to a schema; the registry lost some", lowered)
	}
}

// noLowering is a schema keyword the lowering table does not know.
type noLowering struct{}

func (noLowering) Name() string                    { return "nolowering" }
func (noLowering) Class() model.Class              { return model.Schema }
func (noLowering) Doc() string                     { return "a keyword without a lowering" }
func (noLowering) Schema() string                  { return "nothing" }
func (noLowering) Resolve(*model.Use) (any, error) { return nil, nil }
func (noLowering) Carry(*model.Use) model.Carry    { return model.Carry{} }

// TestKeywordWithoutLoweringFails: a schema keyword the table lacks is an
// error at its use, not a check silently left out.
func TestKeywordWithoutLoweringFails(t *testing.T) {
	u := &model.Use{Keyword: noLowering{}, Name: "nolowering", Type: &model.TypeRef{Kind: model.KindString, GoType: "string"},
		Pos: model.Pos{File: "types.go", Line: 3, Col: 9}}
	_, _, diags := LowerUse(u, model.TargetCRD)
	if !diags.HasErrors() || !strings.Contains(diags.Error(), "types.go:3:9") || !strings.Contains(diags.Error(), "no lowering") {
		t.Fatalf("want a positioned error about the missing lowering, got %q", diags.Error())
	}
}

// TestLoweringFollowsCarry resolves every single-value keyword on every
// kind with a range of parameters and lowers each use that resolves for a
// CRD: the lowering writes a CEL rule exactly when the model said so
// (Carry.CRDRule, which makes an alternative with it runtime only), and a
// map key gets an expression exactly when the model said one exists
// (Carry.OnKey, else Load warns that the key check is runtime only).
func TestLoweringFollowsCarry(t *testing.T) {
	str := &model.TypeRef{Kind: model.KindString, GoType: "string"}
	i64 := &model.TypeRef{Kind: model.KindInt, Bits: 64, GoType: "int64"}
	types := []*model.TypeRef{
		str, i64,
		{Kind: model.KindInt, Bits: 8, GoType: "int8"},
		{Kind: model.KindInt, Bits: 64, Unsigned: true, GoType: "uint64"},
		{Kind: model.KindFloat, Bits: 64, GoType: "float64"},
		{Kind: model.KindFloat, Bits: 32, GoType: "float32"},
		{Kind: model.KindBool, GoType: "bool"},
		{Kind: model.KindBytes, GoType: "[]byte"},
		{Kind: model.KindDuration, Bits: 64, GoType: "time.Duration"},
		{Kind: model.KindTime, GoType: "time.Time", ImportPath: "time", TypeName: "Time"},
		{Kind: model.KindSlice, Len: -1, Elem: str, GoType: "[]string"},
		{Kind: model.KindSlice, Len: -1, Elem: &model.TypeRef{Kind: model.KindSlice, Len: -1, Elem: str, GoType: "[]string"}, GoType: "[][]string"},
		{Kind: model.KindSlice, Len: 3, Elem: str, GoType: "[3]string"},
		{Kind: model.KindMap, Key: str, Elem: str, GoType: "map[string]string"},
		{Kind: model.KindPointer, Elem: str, GoType: "*string"},
		{Kind: model.KindPointer, Elem: i64, GoType: "*int64"},
	}
	params := []string{"", "0", "1", "3", "2.5", "-1", "x", "a b", "'a b' c", "true", "1h", "Kx", "é"}
	resolved, rules, keys := 0, 0, 0
	for _, k := range model.Keywords() {
		if k.Class() != model.Schema && k.Class() != model.CEL || strings.Contains(k.Name(), "field") || strings.HasPrefix(k.Name(), "required_") || strings.HasPrefix(k.Name(), "excluded_") {
			continue // the cross-field keywords need sibling fields: always a rule on the parent
		}
		for _, typ := range types {
			for _, p := range params {
				f := &model.Field{GoName: "F", JSONName: "f", Type: typ}
				owner := &model.Type{Name: "T", TypeKind: model.TypeStruct, Fields: []*model.Field{f}}
				u := &model.Use{Keyword: k, Name: k.Name(), Param: p, Type: typ, Owner: owner, Field: f}
				v, err := k.Resolve(u)
				if err != nil {
					continue
				}
				u.Value = v
				carry := k.Carry(u)
				if carry.RuntimeOnly != "" {
					continue
				}
				resolved++
				self, parent, diags := LowerUse(u, model.TargetCRD)
				if diags.HasErrors() {
					t.Errorf("%s=%s on %s: %s", k.Name(), p, typ.GoType, diags.Error())
				}
				gotRule := len(self.XValidations)+len(parent.XValidations) > 0
				if gotRule != carry.CRDRule {
					t.Errorf("%s=%q on %s: the CRD lowering writes a CEL rule: %v, the model says %v", k.Name(), p, typ.GoType, gotRule, carry.CRDRule)
				}
				if gotRule {
					rules++
				}
				if typ.Kind == model.KindString {
					_, ok := keyExpr(u)
					if ok != carry.OnKey {
						t.Errorf("%s=%q on a map key: the lowering has a key expression: %v, the model says %v", k.Name(), p, ok, carry.OnKey)
					}
					if ok {
						keys++
					}
				}
			}
		}
	}
	if resolved < 500 || rules < 50 || keys < 50 {
		t.Errorf("checked %d uses (%d CEL rules, %d key expressions): the matrix no longer reaches the keywords", resolved, rules, keys)
	}
	t.Logf("%d uses, %d CEL rules, %d key expressions", resolved, rules, keys)
}
