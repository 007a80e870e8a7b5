// Package diagtest renders a run's diagnostics for the diagnostics goldens
// (testkit.DiagnosticGoldens) of the packages that raise them: model's
// loader and the backends under gen/.
package diagtest

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelgen/modelgen/model"
)

// Render prints, one a line and sorted by position, the diagnostics of ds
// whose file lies in dir (or below it) and that keep accepts (nil: all),
// with their files relative to dir: the content of the case's stderr.txt.
func Render(t testing.TB, ds model.Diagnostics, dir string, keep func(model.Diagnostic) bool) string {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, d := range ds.Sorted() {
		rel, err := filepath.Rel(abs, d.Pos.File)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		if keep != nil && !keep(d) {
			continue
		}
		d.Pos.File = filepath.ToSlash(rel)
		b.WriteString(strings.TrimPrefix(d.String(), abs+string(filepath.Separator)))
		b.WriteByte('\n')
	}
	return b.String()
}
