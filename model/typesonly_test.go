package model_test

import (
	"testing"

	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/modelgen/modelgen/model"
)

// TestTypesOnlyChecksWhatTheSchemasReach: a load for the schemas alone
// type-checks the packages the types' JSON fields reach, as controller-gen
// crd does, and not a package a field without a json tag names (the
// client a reconciler embeds, whose graph would be checked from source);
// a full load checks it.
func TestTypesOnlyChecksWhatTheSchemasReach(t *testing.T) {
	for _, typesOnly := range []bool{true, false} {
		m, err := model.Load(model.Config{Patterns: []string{"./testdata/typesonly"}, TypesOnly: typesOnly})
		if err != nil {
			t.Fatal(err)
		}
		if m.Diags.HasErrors() {
			t.Fatal(m.Diags)
		}
		if len(m.SortedTypes()) != 1 {
			t.Fatalf("types: %v", m.SortedTypes())
		}
		http := find(m.Loaded[0], "net/http", map[*loader.Package]bool{})
		if http == nil {
			t.Fatal("net/http is not in the package graph")
		}
		if checked := http.Types != nil && http.Types.Complete(); checked == typesOnly {
			t.Errorf("TypesOnly=%v: net/http type-checked = %v", typesOnly, checked)
		}
		if u := find(m.Loaded[0], "net/url", map[*loader.Package]bool{}); u == nil || u.Types == nil || !u.Types.Complete() {
			t.Errorf("TypesOnly=%v: net/url, which Spec's untagged field names, is not type-checked", typesOnly)
		}
	}
}

func find(p *loader.Package, path string, seen map[*loader.Package]bool) *loader.Package {
	if seen[p] {
		return nil
	}
	seen[p] = true
	if p.PkgPath == path {
		return p
	}
	for _, imp := range p.Imports() {
		if f := find(imp, path, seen); f != nil {
			return f
		}
	}
	return nil
}
