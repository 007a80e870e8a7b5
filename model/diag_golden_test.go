package model_test

import (
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/modelgen/modelgen/model"

	"github.com/modelgen/modelgen/internal/testkit"
	"github.com/modelgen/modelgen/internal/testkit/diagtest"
)

// The diagnostics goldens live in testdata/diag/<case>/: a tiny Go package
// (the go tool ignores testdata, so it is not part of the module's build)
// and stderr.txt, the sorted diagnostics with positions relative to the
// case directory. Regenerate with
//
//	go test ./model -run TestDiagnostics -update
//
// and review the diff: the goldens are the specification.

const diagDir = "testdata/diag"

var (
	diagOnce  sync.Once
	diagModel *model.Model
	diagErr   error
)

// loadDiagCases loads every case package in one go: the loader type-checks
// what it loads, so one load for all cases keeps the test fast.
func loadDiagCases(t *testing.T, cases []string) *model.Model {
	t.Helper()
	diagOnce.Do(func() {
		patterns := make([]string, len(cases))
		for i, c := range cases {
			patterns[i] = "./" + filepath.Base(c)
		}
		diagModel, diagErr = model.Load(model.Config{Dir: diagDir, Patterns: patterns})
	})
	if diagErr != nil {
		t.Fatalf("load: %v", diagErr)
	}
	return diagModel
}

func TestDiagnostics(t *testing.T) {
	m := loadDiagCases(t, testkit.Cases(t, diagDir))
	claimed := 0
	testkit.DiagnosticGoldens(t, diagDir, func(t *testing.T, dir string) string {
		got := diagtest.Render(t, m.Diags, dir, nil)
		claimed += strings.Count(got, "\n")
		return got
	})
	// every diagnostic belongs to some case: none lost its position
	if n := len(m.Diags.Sorted()); n != claimed {
		t.Errorf("%d diagnostics, but only %d are positioned inside a case directory:\n%s", n, claimed, m.Diags.Error())
	}
}

// TestDiagnosticsSingleCase loads one case the way a user's run would (its
// directory, pattern "."), so the shared load above is not hiding a
// difference between loading one package and loading several.
func TestDiagnosticsSingleCase(t *testing.T) {
	dir := filepath.Join(diagDir, "several")
	m, err := model.Load(model.Config{Dir: dir, Patterns: []string{"."}})
	if err != nil {
		t.Fatal(err)
	}
	want := testkit.ReadFile(t, filepath.Join(dir, testkit.DiagnosticsFile))
	if got := diagtest.Render(t, m.Diags, dir, nil); got != want {
		t.Errorf("loading %s alone:\n--- got\n%s--- want\n%s", dir, got, want)
	}
}
