package schema_test

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"github.com/go-playground/validator/v10"
	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/gen/crd"
	"github.com/modelgen/modelgen/internal/crdjudge"
	"github.com/modelgen/modelgen/model"
)

// guardSpec mirrors testdata/guards.GuardSpec (TestGuardMirror keeps the
// tags in step), so validator can judge the same documents as the CRD.
type guardSpec struct {
	Solo   bool              `json:"solo,omitempty"`
	Peers  []string          `json:"peers,omitempty" validate:"omitzero,max=5,excluded_with=Solo,dive,max=20"`
	Labels map[string]string `json:"labels,omitempty" validate:"omitzero,max=4,excluded_with=Solo,dive,max=20"`
	Ratio  float64           `json:"ratio,omitempty" validate:"omitempty,gte=0.5,lte=2.5"`
	Addr   *string           `json:"addr,omitempty" validate:"omitzero,max=45,ip"`
	Name   string            `json:"name" validate:"omitnil,min=3,max=10"`
	Count  int32             `json:"count,omitempty" validate:"omitzero,gte=2"`
}

func TestGuardMirror(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join("testdata", "guards", "types.go"), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	ast.Inspect(f, func(n ast.Node) bool {
		if ts, ok := n.(*ast.TypeSpec); ok && ts.Name.Name == "GuardSpec" {
			for _, fld := range ts.Type.(*ast.StructType).Fields.List {
				tag, _ := strconv.Unquote(fld.Tag.Value)
				want = append(want, tag)
			}
		}
		return true
	})
	rt := reflect.TypeOf(guardSpec{})
	if rt.NumField() != len(want) {
		t.Fatalf("mirror has %d fields, testdata %d", rt.NumField(), len(want))
	}
	for i := range want {
		if got := string(rt.Field(i).Tag); got != want[i] {
			t.Errorf("field %d: mirror tag %q, testdata tag %q", i, got, want[i])
		}
	}
}

// guardCRD builds the CRD of testdata/guards as the CLI does; crd.Build runs
// the API server's own CRD validation (structural schema, CEL compilation,
// cost budget), so every guard written into a rule must compile.
func guardCRD(t *testing.T) *apiext.CustomResourceDefinition {
	t.Helper()
	m, err := model.Load(model.Config{Dir: filepath.Join("testdata", "guards"), Patterns: []string{"."}})
	if err != nil {
		t.Fatal(err)
	}
	if m.Diags.HasErrors() {
		t.Fatalf("load: %v", m.Diags)
	}
	results, diags := crd.Build(&gen.Context{Model: m, Configs: map[string]gen.Config{}})
	if diags.HasErrors() {
		t.Fatalf("the API server rejects the CRD:\n%v", diags)
	}
	if len(results) != 1 {
		t.Fatalf("%d CRDs, want 1", len(results))
	}
	return results[0].CRD
}

// TestGuardsAgreeWithValidator: in the CRD, the checks after omitempty,
// omitzero and omitnil let through exactly what validator lets through.
func TestGuardsAgreeWithValidator(t *testing.T) {
	def := guardCRD(t)
	server, err := crdjudge.New(def, def.Spec.Versions[0].Name)
	if err != nil {
		t.Fatal(err)
	}
	v := validator.New()
	tests := []struct {
		spec  string
		valid bool // validator's verdict, checked below as well
	}{
		{`{"name":"abc"}`, true},
		{`{}`, false},                                   // omitnil skips nothing on a string
		{`{"name":""}`, false},                          // idem
		{`{"name":"abc","solo":true,"peers":[]}`, true}, // omitzero skips an empty list...
		{`{"name":"abc","solo":true,"peers":["a"]}`, false},
		{`{"name":"abc","solo":false,"peers":["a"]}`, true},
		{`{"name":"abc","peers":["a","b","c","d","e","f"]}`, false},
		{`{"name":"abc","solo":true,"labels":{}}`, true}, // ...and an empty map
		{`{"name":"abc","solo":true,"labels":{"a":"b"}}`, false},
		{`{"name":"abc","ratio":0}`, true}, // omitempty skips 0
		{`{"name":"abc","ratio":0.4}`, false},
		{`{"name":"abc","ratio":0.5}`, true},
		{`{"name":"abc","ratio":1}`, true},
		{`{"name":"abc","ratio":2.6}`, false},
		{`{"name":"abc","addr":""}`, true}, // omitzero skips a pointer to ""
		{`{"name":"abc","addr":"10.0.0.1"}`, true},
		{`{"name":"abc","addr":"nope"}`, false},
		{`{"name":"abc","count":0}`, true},
		{`{"name":"abc","count":1}`, false},
		{`{"name":"abc","count":2}`, true},
	}
	for _, tt := range tests {
		var mirror guardSpec
		if err := json.Unmarshal([]byte(tt.spec), &mirror); err != nil {
			t.Fatal(err)
		}
		byValidator := v.Struct(mirror) == nil
		spec, err := crdjudge.Decode([]byte(tt.spec))
		if err != nil {
			t.Fatal(err)
		}
		errs := server.Create(server.Object(map[string]any{"spec": spec}))
		if byValidator != tt.valid {
			t.Errorf("%s: validator says %v, the table says %v", tt.spec, byValidator, tt.valid)
		}
		if (len(errs) == 0) != byValidator {
			t.Errorf("%s: validator says %v, the API server says %v", tt.spec, byValidator, errs.ToAggregate())
		}
	}
}
