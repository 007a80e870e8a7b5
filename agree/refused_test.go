package agree_test

import (
	"strings"
	"testing"

	"github.com/modelgen/modelgen/model"
)

// TestRefusedTags pins the tags the harness found validator cannot run:
// bounds on a metav1.Time panic in validator, field comparisons of
// metav1.Time compare their printed form, eq on a time panics.
func TestRefusedTags(t *testing.T) {
	m, err := model.Load(model.Config{Dir: "testdata/refused"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]string{
		15: `"gt" on v1.Time: validator compares only time.Time with the clock`,
		17: `"gtfield" on v1.Time: validator compares only time.Time values`,
		18: `"eq" on a time panics in validator`,
	}
	got := map[int]string{}
	for _, d := range m.Diags {
		if d.Severity == model.Error {
			got[d.Pos.Line] = d.Msg
		}
	}
	for line, msg := range want {
		if !strings.Contains(got[line], msg) {
			t.Errorf("line %d: want an error containing %q, got %q", line, msg, got[line])
		}
	}
	if len(got) != len(want) {
		t.Errorf("want %d errors, got %v", len(want), got)
	}
}
