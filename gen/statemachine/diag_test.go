package statemachine_test

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/gen/statemachine"
	"github.com/modelgen/modelgen/model"

	"github.com/modelgen/modelgen/internal/testkit"
)

// The testdata packages are loaded once: loading is the slow part.
var (
	diagCases = sync.OnceValues(func() (*model.Model, error) {
		return model.Load(model.Config{Dir: "testdata", Patterns: []string{"./diag/..."}})
	})
	machinePkg = sync.OnceValues(func() (*model.Model, error) {
		return model.Load(model.Config{Dir: "testdata", Patterns: []string{"./machine"}})
	})
)

func load(t *testing.T, which func() (*model.Model, error)) *model.Model {
	t.Helper()
	m, err := which()
	if err != nil {
		t.Fatal(err)
	}
	if m.Diags.HasErrors() {
		t.Fatalf("loading testdata: %v", m.Diags)
	}
	return m
}

// generate runs the backend as the CLI does: Load resolved and checked the
// machines, and Run adds the backend's diagnostics and both schema
// targets' (through the OpenAPI backend, which builds them).
func generate(t *testing.T, m *model.Model) ([]gen.File, model.Diagnostics) {
	t.Helper()
	files, diags := gen.Run(m, map[string]gen.Config{}, []gen.Generator{statemachine.Generator{}})
	if !diags.HasErrors() {
		c := &gen.Context{Model: m, Configs: map[string]gen.Config{}}
		for _, target := range []model.Target{model.TargetOpenAPI, model.TargetCRD} {
			diags.Add(c.Schemas(target).Diags)
		}
	}
	return files, diags
}

// caseDiagnostics are the model's diagnostics and the backend's, which
// checks the names it generates: the backend runs on every package, also
// beside a case whose mistakes Load reports (a run of the CLI would stop
// there, before any backend; each case here is judged on its own).
func caseDiagnostics(m *model.Model) model.Diagnostics {
	diags := append(model.Diagnostics(nil), m.Diags...)
	_, d := statemachine.Generator{}.Generate(&gen.Context{Model: m, Configs: map[string]gen.Config{}})
	diags.Add(d)
	return diags
}

// TestDiagnostics compares the diagnostics of each testdata/diag/<case>
// with its stderr.txt (go test -update rewrites them).
func TestDiagnostics(t *testing.T) {
	m, err := diagCases()
	if err != nil {
		t.Fatal(err)
	}
	diags := caseDiagnostics(m)
	cases, err := filepath.Glob("testdata/diag/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range cases {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			abs, _ := filepath.Abs(dir)
			var lines []string
			for _, d := range diags.Sorted() {
				if filepath.Dir(d.Pos.File) == abs && !strings.HasPrefix(d.Msg, "validate:") {
					d.Pos.File = filepath.Base(d.Pos.File)
					lines = append(lines, d.String()+"\n")
				}
			}
			got := strings.Join(lines, "")
			golden := filepath.Join(dir, "stderr.txt")
			if testkit.Update() {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if got != string(want) {
				t.Errorf("diagnostics differ from %s (go test -update rewrites it):\n--- got\n%s--- want\n%s", golden, got, want)
			}
		})
	}
}
