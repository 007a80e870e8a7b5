package schema

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"sigs.k8s.io/controller-tools/pkg/crd"

	"github.com/modelgen/modelgen/model"
)

// TestSharedBareSchemasAreCopies: BuildWith copies the pre-overlay schema
// of the structs with validate tags only and shares every other type's
// overlaid schema as its bare one, copying it when an unvalidated variant
// is made. The schemas of every target and case must be those of a build
// that copies every type's schema, as before; sharedbare is the case where
// a variant is made of a shared schema (red when that copy is left out),
// and a change that makes the overlay of an untagged struct differ from
// bareStruct turns it red too.
func TestSharedBareSchemasAreCopies(t *testing.T) {
	patterns := []string{"./schema/testdata/sharedbare", "./schema/testdata/guards"}
	entries, err := os.ReadDir(filepath.Join("..", "openapi", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() {
			patterns = append(patterns, "./openapi/testdata/"+e.Name())
		}
	}
	m, err := model.Load(model.Config{Dir: "..", Patterns: patterns})
	if err != nil || m.Diags.HasErrors() {
		t.Fatalf("loading: %v %v", err, m.Diags)
	}
	defer func() { copyEveryBase = false }()
	for _, target := range []model.Target{model.TargetCRD, model.TargetOpenAPI} {
		copyEveryBase = false
		shared := Build(m, target)
		copyEveryBase = true
		copied := Build(m, target)
		if len(copied.Unvalidated) == 0 {
			t.Fatalf("target %v: no unvalidated variants: the cases test nothing", target)
		}
		if !reflect.DeepEqual(keys(shared.Unvalidated), keys(copied.Unvalidated)) {
			t.Errorf("target %v: variants %v, copying every schema %v", target, keys(shared.Unvalidated), keys(copied.Unvalidated))
		}
		for id, want := range copied.Parser.Schemata {
			if got, ok := shared.Parser.Schemata[id]; !ok || !reflect.DeepEqual(got, want) {
				t.Errorf("target %v: schema of %s.%s differs from the build that copies every schema", target, id.Package.PkgPath, id.Name)
			}
		}
		if len(shared.Parser.Schemata) != len(copied.Parser.Schemata) {
			t.Errorf("target %v: %d schemas, copying every schema %d", target, len(shared.Parser.Schemata), len(copied.Parser.Schemata))
		}
	}
}

func keys[V any](m map[crd.TypeIdent]V) []string {
	var out []string
	for id := range m {
		out = append(out, id.Package.PkgPath+"."+id.Name)
	}
	sort.Strings(out)
	return out
}
