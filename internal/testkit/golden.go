package testkit

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Golden compares got with the golden file at path; under -update it
// writes got there instead (making the directories).
func Golden(t testing.TB, path, got string) {
	t.Helper()
	if Update() {
		WriteFile(t, path, got)
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (run with -update to accept, and review the diff)\n--- got\n%s--- want\n%s", path, got, want)
	}
}

// DiagnosticsFile is the golden of a diagnostics case: what the run
// printed, positions relative to the case directory.
const DiagnosticsFile = "stderr.txt"

// Cases are the directories directly under root, sorted; a root without
// any fails the test, so that a moved testdata directory cannot make a
// golden loop check nothing.
func Cases(t testing.TB, root string) []string {
	t.Helper()
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var cases []string
	for _, e := range entries {
		if e.IsDir() {
			cases = append(cases, filepath.Join(root, e.Name()))
		}
	}
	if len(cases) == 0 {
		t.Fatalf("no cases under %s", root)
	}
	sort.Strings(cases)
	return cases
}

// DiagnosticGoldens is the diagnostics-golden loop: for each case
// directory under root, a subtest named after it compares render(case)
// (the diagnostics of the case, positions relative to its directory) with
// the case's stderr.txt.
func DiagnosticGoldens(t *testing.T, root string, render func(t *testing.T, dir string) string) {
	t.Helper()
	for _, dir := range Cases(t, root) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			Golden(t, filepath.Join(dir, DiagnosticsFile), render(t, dir))
		})
	}
}

// StripDir removes dir from what a command printed: paths under dir become
// relative, and dir itself ".".
func StripDir(text, dir string) string {
	text = strings.ReplaceAll(text, dir+string(filepath.Separator), "")
	return strings.ReplaceAll(text, dir, ".")
}
