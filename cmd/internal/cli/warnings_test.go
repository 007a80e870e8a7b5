package cli_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelgen/modelgen/cmd/internal/cli"

	"github.com/modelgen/modelgen/internal/testkit"
)

// TestWarningsDoNotDependOnOnly: the warnings about checks no schema
// carries come from the model (model.RuntimeOnly), so every run prints
// them, whichever backends it runs.
func TestWarningsDoNotDependOnOnly(t *testing.T) {
	dir := t.TempDir()
	testkit.CopyTree(t, filepath.Join("testdata", "warnings"), dir)
	testkit.Module(t, dir, "example.com/warnings")
	warnings := func(extra ...string) []string {
		r := run(append(append([]string{"generate"}, extra...), "-C", dir, "./...")...)
		if r.code != cli.ExitOK {
			t.Fatalf("generate %v: %v", extra, r)
		}
		var out []string
		for _, line := range strings.Split(r.stderr, "\n") {
			if strings.Contains(line, ": warning: ") {
				out = append(out, line)
			}
		}
		return out
	}
	all := warnings()
	if len(all) != 4 {
		t.Fatalf("a full run printed %d warnings, want 4 (iso4217, keys ne, alternatives, unique on a map):\n%s", len(all), strings.Join(all, "\n"))
	}
	for _, only := range []string{"deepcopy", "openapi", "statemachine"} {
		if got := warnings("--only", only); !slices.Equal(got, all) {
			t.Errorf("--only %s printed\n%s\nwant\n%s", only, strings.Join(got, "\n"), strings.Join(all, "\n"))
		}
	}
}
