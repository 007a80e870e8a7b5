package testkit

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Golden compares got with the golden file at path, byte for byte, and
// reports whether they are equal; under -update it writes got there instead
// (making the directories) and reports true. A difference fails the test
// (without stopping it) with the first lines that differ.
func Golden(t testing.TB, path, got string) bool {
	t.Helper()
	if Update() {
		WriteFile(t, path, got)
		return true
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Errorf("%v (run with -update to create it)", err)
		return false
	}
	if got == string(want) {
		return true
	}
	t.Errorf("%s differs (run with -update to accept, and review the diff):\n%s", path, firstDifference(got, string(want)))
	return false
}

// firstDifference shows where got and want part: the first differing line
// with two lines of context, or all of both when they are short.
func firstDifference(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	if len(g)+len(w) <= 40 {
		return "--- got\n" + got + "\n--- want\n" + want
	}
	i := 0
	for i < len(g) && i < len(w) && g[i] == w[i] {
		i++
	}
	from := max(i-2, 0)
	return fmt.Sprintf("first difference at line %d (got %d lines, want %d)\n--- got\n%s\n--- want\n%s",
		i+1, len(g), len(w), strings.Join(g[from:min(i+3, len(g))], "\n"), strings.Join(w[from:min(i+3, len(w))], "\n"))
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
