package model_test

import (
	"testing"

	"github.com/modelgen/modelgen/model"
	"sigs.k8s.io/controller-tools/pkg/loader"
)

// TestObjectOnlyLeavesInterfacesOut: a load for deepcopy alone type-checks
// the packages the type declarations name, as controller-gen object does,
// and not one only an interface's method names; a full load checks it.
func TestObjectOnlyLeavesInterfacesOut(t *testing.T) {
	for _, objectOnly := range []bool{true, false} {
		m, err := model.Load(model.Config{Patterns: []string{"./testdata/objectonly"}, ObjectOnly: objectOnly})
		if err != nil {
			t.Fatal(err)
		}
		if m.Diags.HasErrors() {
			t.Fatal(m.Diags)
		}
		if len(m.SortedTypes()) == 0 {
			t.Fatalf("types: %v", m.SortedTypes())
		}
		http := find(m.Loaded[0], "net/http", map[*loader.Package]bool{})
		if http == nil {
			t.Fatal("net/http is not in the package graph")
		}
		if checked := http.Types != nil && http.Types.Complete(); checked == objectOnly {
			t.Errorf("ObjectOnly=%v: net/http type-checked = %v", objectOnly, checked)
		}
		if u := find(m.Loaded[0], "net/url", map[*loader.Package]bool{}); u == nil || u.Types == nil || !u.Types.Complete() {
			t.Errorf("ObjectOnly=%v: net/url, which Spec's field names, is not type-checked", objectOnly)
		}
	}
}
