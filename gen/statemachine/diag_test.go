package statemachine_test

import (
	"path/filepath"
	"sync"
	"testing"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/gen/statemachine"
	"github.com/modelgen/modelgen/internal/testkit"
	"github.com/modelgen/modelgen/internal/testkit/diagtest"
	"github.com/modelgen/modelgen/model"
)

// diagDir holds the cases whose mistakes the backend reports: the names it
// generates colliding with fields, methods, deepcopy's methods or the
// package's declarations. The state tag's own mistakes, which model.Load
// reports, are model's goldens (model/testdata/diag/state-*).
const diagDir = "testdata/diag"

var diagCases = sync.OnceValues(func() (*model.Model, error) {
	return model.Load(model.Config{Dir: diagDir, Patterns: []string{"./..."}})
})

// TestDiagnostics compares each testdata/diag/<case> with its stderr.txt:
// the model's diagnostics and the backend's, as a run reports them (go test
// -update rewrites them). The backend runs on the one model that holds every
// case, so each case is judged on its own even where Load also found a
// mistake in it.
func TestDiagnostics(t *testing.T) {
	m, err := diagCases()
	if err != nil {
		t.Fatal(err)
	}
	diags := append(model.Diagnostics(nil), m.Diags...)
	_, d := statemachine.Generator{}.Generate(&gen.Context{Model: m, Configs: map[string]gen.Config{}})
	diags.Add(d)
	claimed := 0
	testkit.DiagnosticGoldens(t, diagDir, func(t *testing.T, dir string) string {
		got := diagtest.Render(t, diags, dir, nil)
		for _, c := range got {
			if c == '\n' {
				claimed++
			}
		}
		return got
	})
	if n := len(diags); n != claimed || n == 0 {
		t.Errorf("%d diagnostics, %d of them inside a case directory of %s", n, claimed, filepath.Clean(diagDir))
	}
}
