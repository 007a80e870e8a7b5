package model_test

import (
	"testing"

	"github.com/modelgen/modelgen/model"
)

// TestRuntimeOnlyIsTyped: every check no schema carries is typed data in
// the model (the field, the uses, the reason), with one warning at its
// position, so consumers never read a diagnostic's text.
func TestRuntimeOnlyIsTyped(t *testing.T) {
	m, err := model.Load(model.Config{Dir: "../cmd/internal/cli/testdata/warnings", Patterns: []string{"./..."}})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.RuntimeOnly) != 4 {
		t.Fatalf("%d runtime-only checks, want 4: %+v", len(m.RuntimeOnly), m.RuntimeOnly)
	}
	warned := map[model.Pos]int{}
	for _, d := range m.Diags {
		if d.Severity == model.Warning {
			warned[d.Pos]++
		}
	}
	for _, r := range m.RuntimeOnly {
		if r.Field == nil || len(r.Uses) == 0 || r.Why == "" {
			t.Errorf("incomplete runtime-only record %+v", r)
		}
		if warned[r.Pos] != 1 {
			t.Errorf("%s: %d warnings, want 1", r.Pos, warned[r.Pos])
		}
	}
}
