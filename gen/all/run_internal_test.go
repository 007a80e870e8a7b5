package all

import (
	"path/filepath"
	"testing"

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
