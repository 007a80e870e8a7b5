package all

import (
	"path/filepath"
	"testing"

	"golang.org/x/tools/go/packages"
	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/internal/testkit"
	"github.com/modelgen/modelgen/internal/typecheck"
	"github.com/modelgen/modelgen/model"
)

// goBackend writes one Go file into the first package and records that it
// ran.
type goBackend struct{ ran *bool }

func (goBackend) Name() string { return "gofile" }

func (b goBackend) Generate(c *gen.Context) ([]gen.File, model.Diagnostics) {
	*b.ran = true
	pk := c.Model.Packages[0]
	return []gen.File{{Path: filepath.Join(pk.Dir, "zz_generated.gofile.go"), Data: []byte("package " + pk.Name + "\n"), Owner: pk.Path}}, nil
}

func (goBackend) Outputs(c *gen.Context) []gen.Output {
	return []gen.Output{{Format: gen.FormatGo, Dir: c.Model.Packages[0].Dir, Name: "zz_generated.gofile.go"}}
}

// TestTypeCheckStartsAfterTheBackends: the type check of the generated Go
// code (its reading of the dependencies' export data included) starts once
// every backend has run, so that what it holds and what the backends hold
// are never live at once; and it still runs.
func TestTypeCheckStartsAfterTheBackends(t *testing.T) {
	dir := t.TempDir()
	testkit.UTF8Module(t, dir)
	ran, started, ranFirst := false, false, false
	defer func(f func(*model.Model, *typecheck.Exports) *typecheck.Check) { afterBackends = f }(afterBackends)
	afterBackends = func(m *model.Model, x *typecheck.Exports) *typecheck.Check {
		started, ranFirst = true, ran
		return typecheck.StartWith(m, x)
	}
	res := Run{
		Load:     model.Config{Dir: dir, Patterns: []string{"."}},
		Backends: []gen.Backend{goBackend{&ran}},
		Check:    true,
	}.Execute()
	if res.Err != nil || res.Diags.HasErrors() {
		t.Fatal(res.Err, res.Diags)
	}
	if !started {
		t.Fatal("the run type-checked nothing")
	}
	if !ranFirst {
		t.Error("the type check started before the backends ran")
	}
}

// TestCoveredNamesThePatternsPackages: the packages whose earlier output a
// run may remove are those its patterns name in a root's module, whether
// or not they are still there, and not those of a module nested in it.
func TestCoveredNamesThePatternsPackages(t *testing.T) {
	mod := t.TempDir()
	testkit.WriteFile(t, filepath.Join(mod, "tools", "go.mod"), "module example.com/m/tools\n")
	roots := []*loader.Package{{Package: &packages.Package{Module: &packages.Module{Path: "example.com/m", Dir: mod}}}}
	for _, c := range []struct {
		patterns []string
		path     string
		want     bool
	}{
		{[]string{"./api/..."}, "example.com/m/api/gone/v1", true},
		{[]string{"./api/..."}, "example.com/m/internal/controller", false},
		{[]string{"./api/v1"}, "example.com/m/api/v2", false},
		{[]string{"./api/v1", "./api/v2"}, "example.com/m/api/v2", true},
		{[]string{"./..."}, "example.com/m", true},
		{[]string{"./..."}, "example.com/m/tools/gen", false},
		{[]string{"./..."}, "example.com/other/api/v1", false},
		{[]string{"example.com/m/api/..."}, "example.com/m/api/v1", true},
	} {
		if got := covered(roots, mod, c.patterns)(c.path); got != c.want {
			t.Errorf("patterns %v, %s: covered %v, want %v", c.patterns, c.path, got, c.want)
		}
	}
}
