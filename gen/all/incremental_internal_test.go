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
	parts := split(m, nil, nil, roots, sums, []gen.File{own}, model.Diagnostics{warning}, nil)
	if len(parts) != 1 || len(parts[0].Files) != 1 || len(parts[0].Diags) != 1 || parts[0].Inputs == "" {
		t.Fatalf("a run of one package's own files: %+v", parts)
	}
	role := gen.File{Path: "/m/config/rbac/role.yaml", Owner: gen.ModuleOwner("example.com/m"), Backend: "role"}
	if parts := split(m, nil, nil, roots, sums, []gen.File{own, role}, nil, nil); parts != nil {
		t.Errorf("a run with a file of the whole module was split: %+v", parts)
	}
	elsewhere := model.Diagnostic{Pos: model.Pos{File: "/m/lib/lib.go", Line: 1, Col: 1}, Severity: model.Warning, Msg: "w"}
	if parts := split(m, nil, nil, roots, sums, []gen.File{own}, model.Diagnostics{elsewhere}, nil); parts != nil {
		t.Errorf("a run with a diagnostic outside its roots was split: %+v", parts)
	}
}

// replayer is a backend whose module file is made of each root's part
// (gen.Replayer); ok says whether it can give every root's.
type replayer struct{ ok bool }

func (replayer) Name() string                                          { return "role" }
func (replayer) Generate(*gen.Context) ([]gen.File, model.Diagnostics) { return nil, nil }
func (replayer) Outputs(*gen.Context) []gen.Output                     { return nil }
func (r replayer) Parts(c *gen.Context) (map[string][]byte, bool) {
	return map[string][]byte{"example.com/m/internal/controller": []byte(`{"markers":["+kubebuilder:rbac:groups=a,resources=b,verbs=get"]}`)}, r.ok
}

// TestAModuleFileOfAReplayerIsSplit: a file generated from the whole
// module by a backend that gives every root's part of it (gen.Replayer)
// is no package's: the record is split, each root keeps its part, and the
// file is made again in every run; a backend that cannot give a part
// leaves the record whole.
func TestAModuleFileOfAReplayerIsSplit(t *testing.T) {
	roots := []*loader.Package{{Package: &packages.Package{PkgPath: "example.com/m/internal/controller", GoFiles: []string{"/m/internal/controller/c.go"}}}}
	sums := runcache.Sums{Files: map[string]string{"/m/internal/controller/c.go": "sha256:x"}}
	m := &model.Model{}
	role := gen.File{Path: "/m/config/rbac/role.yaml", Owner: gen.ModuleOwner("example.com/m"), Backend: "role"}
	parts := split(m, nil, []gen.Backend{replayer{ok: true}}, roots, sums, []gen.File{role}, nil, nil)
	if len(parts) != 1 || len(parts[0].Files) != 0 || len(parts[0].Parts["role"]) == 0 {
		t.Fatalf("a run with a replayer's module file: %+v", parts)
	}
	if parts := split(m, nil, []gen.Backend{replayer{ok: false}}, roots, sums, []gen.File{role}, nil, nil); parts != nil {
		t.Errorf("a run with a module file whose parts cannot be replayed was split: %+v", parts)
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
