package all

import (
	"testing"

	"golang.org/x/tools/go/packages"
	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/internal/runcache"
	"github.com/modelgen/modelgen/model"
)

// TestARunIsSplitOnlyWhenEveryPartIsAPackages: a run's record is kept by
// package only when each generated file and diagnostic belongs to a root
// package; a file generated from the whole module (the operator's role)
// or a diagnostic outside every root leaves the record whole, so that a
// change redoes everything.
func TestARunIsSplitOnlyWhenEveryPartIsAPackages(t *testing.T) {
	roots := []*loader.Package{{Package: &packages.Package{PkgPath: "example.com/m/api/v1", GoFiles: []string{"/m/api/v1/types.go"}}}}
	sums := runcache.Sums{Files: map[string]string{"/m/api/v1/types.go": "sha256:x"}}
	m := &model.Model{}
	own := gen.File{Path: "/m/api/v1/zz_generated.deepcopy.go", Owner: "example.com/m/api/v1", Backend: "deepcopy"}
	warning := model.Diagnostic{Pos: model.Pos{File: "/m/api/v1/types.go", Line: 3, Col: 1}, Severity: model.Warning, Msg: "w"}
	parts := split(m, nil, roots, sums, []gen.File{own}, model.Diagnostics{warning}, nil)
	if len(parts) != 1 || len(parts[0].Files) != 1 || len(parts[0].Diags) != 1 || parts[0].Inputs == "" {
		t.Fatalf("a run of one package's own files: %+v", parts)
	}
	role := gen.File{Path: "/m/config/rbac/role.yaml", Owner: gen.ModuleOwner("example.com/m"), Backend: "role"}
	if parts := split(m, nil, roots, sums, []gen.File{own, role}, nil, nil); parts != nil {
		t.Errorf("a run with a file of the whole module was split: %+v", parts)
	}
	elsewhere := model.Diagnostic{Pos: model.Pos{File: "/m/lib/lib.go", Line: 1, Col: 1}, Severity: model.Warning, Msg: "w"}
	if parts := split(m, nil, roots, sums, []gen.File{own}, model.Diagnostics{elsewhere}, nil); parts != nil {
		t.Errorf("a run with a diagnostic outside its roots was split: %+v", parts)
	}
}

// TestTheDirtySetReachesImportersAndGroups: the closure the plan takes
// follows every edge it is given, again and again.
func TestTheDirtySetReachesImportersAndGroups(t *testing.T) {
	importers := map[string][]string{"a": {"b"}, "b": {"c"}}
	groups := map[string][]string{"c": {"c", "d"}, "d": {"c", "d"}}
	got := closure([]string{"a"}, func(p string) [][]string { return [][]string{importers[p], groups[p]} })
	for _, p := range []string{"a", "b", "c", "d"} {
		if !got[p] {
			t.Errorf("%s is not dirty: %v", p, got)
		}
	}
	if got["e"] || len(got) != 4 {
		t.Errorf("dirty: %v", got)
	}
}
