package model_test

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/modelgen/modelgen/model"

	"github.com/modelgen/modelgen/internal/testkit"
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
			patterns[i] = "./" + c
		}
		diagModel, diagErr = model.Load(model.Config{Dir: diagDir, Patterns: patterns})
	})
	if diagErr != nil {
		t.Fatalf("load: %v", diagErr)
	}
	return diagModel
}

func diagCases(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(diagDir)
	if err != nil {
		t.Fatal(err)
	}
	var cases []string
	for _, e := range entries {
		if e.IsDir() {
			cases = append(cases, e.Name())
		}
	}
	if len(cases) == 0 {
		t.Fatal("no cases under " + diagDir)
	}
	return cases
}

// render prints the diagnostics whose file is in dir, sorted, with
// positions relative to dir.
func render(t *testing.T, ds model.Diagnostics, dir string) string {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, d := range ds.Sorted() {
		rel, err := filepath.Rel(abs, d.Pos.File)
		if err != nil || strings.HasPrefix(rel, "..") {
			continue
		}
		d.Pos.File = filepath.ToSlash(rel)
		b.WriteString(strings.TrimPrefix(d.String(), abs+string(filepath.Separator)))
		b.WriteByte('\n')
	}
	return b.String()
}

func TestDiagnostics(t *testing.T) {
	cases := diagCases(t)
	m := loadDiagCases(t, cases)
	claimed := 0
	for _, c := range cases {
		t.Run(c, func(t *testing.T) {
			dir := filepath.Join(diagDir, c)
			got := render(t, m.Diags, dir)
			claimed += strings.Count(got, "\n")
			golden := filepath.Join(dir, "stderr.txt")
			if testkit.Update() {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("diagnostics of %s differ from %s (run with -update to accept)\n--- got\n%s--- want\n%s", c, golden, got, want)
			}
		})
	}
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
	want, err := os.ReadFile(filepath.Join(dir, "stderr.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if got := render(t, m.Diags, dir); got != string(want) {
		t.Errorf("loading %s alone:\n--- got\n%s--- want\n%s", dir, got, want)
	}
}
