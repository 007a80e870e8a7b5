package schema

import (
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"sync"
	"testing"

	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
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
	m := sharingCases(t)
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

// TestRefsInIsEachRef: the read-only walk finds every reference eachRef
// (controller-tools' EditSchema) finds, as often, in every schema of the
// cases, and in a schema with every kind of subschema.
func TestRefsInIsEachRef(t *testing.T) {
	m := sharingCases(t)
	ref := func(s string) *string { return &s }
	leaf := apiext.JSONSchemaProps{Ref: ref("#/definitions/leaf")}
	every := apiext.JSONSchemaProps{
		Ref:                  ref("#/definitions/self"),
		Items:                &apiext.JSONSchemaPropsOrArray{Schema: &leaf, JSONSchemas: []apiext.JSONSchemaProps{leaf}},
		AllOf:                []apiext.JSONSchemaProps{leaf},
		OneOf:                []apiext.JSONSchemaProps{leaf},
		AnyOf:                []apiext.JSONSchemaProps{leaf},
		Not:                  &leaf,
		Properties:           map[string]apiext.JSONSchemaProps{"a": leaf, "b": {Properties: map[string]apiext.JSONSchemaProps{"c": leaf}}},
		AdditionalProperties: &apiext.JSONSchemaPropsOrBool{Schema: &leaf},
		PatternProperties:    map[string]apiext.JSONSchemaProps{"^a": leaf},
		Dependencies:         apiext.JSONSchemaDependencies{"a": {Schema: &leaf}},
		AdditionalItems:      &apiext.JSONSchemaPropsOrBool{Schema: &leaf},
		Definitions:          apiext.JSONSchemaDefinitions{"d": leaf},
	}
	schemas := []apiext.JSONSchemaProps{every}
	for _, target := range []model.Target{model.TargetCRD, model.TargetOpenAPI} {
		for _, sc := range Build(m, target).Parser.Schemata {
			schemas = append(schemas, sc)
		}
	}
	found := 0
	for _, sc := range schemas {
		var walked, edited []string
		refsIn(&sc, func(r string) { walked = append(walked, r) })
		eachRef(&sc, func(r *string) { edited = append(edited, *r) })
		sort.Strings(walked)
		sort.Strings(edited)
		if !reflect.DeepEqual(walked, edited) {
			t.Errorf("refsIn found %v, eachRef %v", walked, edited)
		}
		found += len(walked)
	}
	if found < 20 {
		t.Fatalf("only %d references: the cases test nothing", found)
	}
}

var (
	casesOnce  sync.Once
	casesModel *model.Model
	casesErr   error
)

// sharingCases loads testdata/sharedbare, testdata/guards and the OpenAPI
// cases once.
func sharingCases(t *testing.T) *model.Model {
	t.Helper()
	casesOnce.Do(func() {
		patterns := []string{"./schema/testdata/sharedbare", "./schema/testdata/guards"}
		entries, err := os.ReadDir(filepath.Join("..", "openapi", "testdata"))
		if err != nil {
			casesErr = err
			return
		}
		for _, e := range entries {
			if e.IsDir() {
				patterns = append(patterns, "./openapi/testdata/"+e.Name())
			}
		}
		m, err := model.Load(model.Config{Dir: "..", Patterns: patterns})
		if err == nil && m.Diags.HasErrors() {
			err = m.Diags
		}
		casesModel, casesErr = m, err
	})
	if casesErr != nil {
		t.Fatalf("loading the cases: %v", casesErr)
	}
	return casesModel
}

// TestVariantsSpreadThroughReferences: a type without validate tags gets an
// unvalidated variant when a type it refers to has one, however many
// references down (testdata/chain: Top -> Mid -> Leaf), in both targets.
func TestVariantsSpreadThroughReferences(t *testing.T) {
	m, err := model.Load(model.Config{Dir: "..", Patterns: []string{"./schema/testdata/chain"}})
	if err == nil && m.Diags.HasErrors() {
		err = m.Diags
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range []model.Target{model.TargetCRD, model.TargetOpenAPI} {
		got := map[string]bool{}
		for id := range Build(m, target).Unvalidated {
			got[id.Name] = true
		}
		for _, name := range []string{"Leaf", "Mid", "Top"} {
			if !got[name+UnvalidatedSuffix] {
				t.Errorf("target %v: %s has no unvalidated variant (variants: %v)", target, name, got)
			}
		}
	}
}
