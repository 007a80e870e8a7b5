package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/yaml"

	"github.com/modelgen/modelgen/cmd/internal/cli"
	"github.com/modelgen/modelgen/internal/crdjudge"

	"github.com/modelgen/modelgen/internal/testkit"
)

// TestCELEscapedNames generates the CRD of testdata/cel, whose properties
// are named `in`, `namespace`, `true`, `x-y`, `a.b`, `c/d`, `e__f` and
// `life-cycle` (and `Quote`, whose tag name it's encoding/json ignores),
// read by cross-field rules and a state machine, and judges
// objects with the API server's own validation (schema and CEL), in
// process: each rule reads the property it means.
func TestCELEscapedNames(t *testing.T) {
	dir := t.TempDir()
	testkit.CopyTree(t, filepath.Join("testdata", "cel"), dir)
	testkit.ModuleWithRequirements(t, dir, "example.com/cel")
	r := run("generate", "-C", dir, "./...")
	if r.code != cli.ExitOK {
		t.Fatalf("generate: %v", r)
	}
	if !strings.Contains(r.stderr, `warning: json: encoding/json ignores the name "it's"`) {
		t.Errorf("no warning about the tag name it's: %v", r)
	}
	data, err := os.ReadFile(filepath.Join(dir, "config", "crd", "bases", "cel.example.com_odds.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var crd apiext.CustomResourceDefinition
	if err := yaml.Unmarshal(data, &crd); err != nil {
		t.Fatal(err)
	}
	for _, escaped := range []string{"self.__in__", "self.__namespace__", "self.__true__", "self.x__dash__y", "self.a__dot__b", "self.c__slash__d", "self.e__underscores__f", "self.life__dash__cycle"} {
		if !strings.Contains(string(data), escaped) {
			t.Errorf("the CRD reads no %s", escaped)
		}
	}
	root := crd.Spec.Versions[0].Schema.OpenAPIV3Schema
	if props := root.Properties["spec"].Properties; props["Quote"].Type == "" || props["it's"].Type != "" {
		t.Errorf("the tag name it's: want the property Quote, as encoding/json names it")
	}
	v, err := crdjudge.New(&crd, crd.Spec.Versions[0].Name)
	if err != nil {
		t.Fatal(err)
	}
	valid := map[string]any{"in": 2, "namespace": 1}
	with := func(extra map[string]any) map[string]any {
		out := map[string]any{}
		for k, x := range valid {
			out[k] = x
		}
		for k, x := range extra {
			out[k] = x
		}
		return out
	}
	for _, c := range []struct {
		name string
		spec map[string]any
		ok   bool
	}{
		{"in > namespace", valid, true},
		{"in == namespace (gtfield)", with(map[string]any{"in": 1}), false},
		{"a.b without x-y (required_with)", with(map[string]any{"a.b": "x"}), false},
		{"a.b with x-y", with(map[string]any{"a.b": "x", "x-y": "y"}), true},
		{"x-y alone", with(map[string]any{"x-y": "y"}), true},
		{"c/d with e__f (excluded_with)", with(map[string]any{"c/d": "x", "e__f": "y"}), false},
		{"c/d alone", with(map[string]any{"c/d": "x"}), true},
		{"true > in (ltefield)", with(map[string]any{"true": 3}), false},
		{"true == in", with(map[string]any{"true": 2}), true},
		{"Quote < namespace (gtefield)", with(map[string]any{"Quote": 0}), false},
		{"Quote == namespace", with(map[string]any{"Quote": 1}), true},
	} {
		errs := v.Create(v.Object(map[string]any{"spec": c.spec}))
		if (len(errs) == 0) != c.ok {
			t.Errorf("%s: want accepted %v, got %v", c.name, c.ok, errs)
		}
	}
	phase := func(p string) map[string]any {
		return map[string]any{"spec": valid, "status": map[string]any{"life-cycle": p}}
	}
	for _, c := range []struct {
		name     string
		old, cur map[string]any
		ok       bool
	}{
		{"create at New", nil, phase("New"), true},
		{"create at Done (initial)", nil, phase("Done"), false},
		{"New -> Done", phase("New"), phase("Done"), true},
		{"Done -> New (no such transition)", phase("Done"), phase("New"), false},
	} {
		var errs field.ErrorList
		if c.old == nil {
			errs = v.Create(v.Object(c.cur))
		} else {
			errs = v.Update(v.Object(c.cur), v.Object(c.old))
		}
		if (len(errs) == 0) != c.ok {
			t.Errorf("%s: want accepted %v, got %v", c.name, c.ok, errs)
		}
	}
}
