package model_test

import (
	"strings"
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

// TestDeclaredKeywordIsRuntimeOnly: a keyword the application registers
// and declares (Config.ValidatorKeywords) is a run-time-only check in the
// model, without a warning; one nobody declared stays an error that names
// the setting.
func TestDeclaredKeywordIsRuntimeOnly(t *testing.T) {
	asked := 0
	m, err := model.Load(model.Config{Patterns: []string{"./testdata/appkeywords"}, ValidatorKeywords: func(dir string) []string {
		asked++
		return []string{"sku", "barcode"}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if asked != 1 {
		t.Errorf("ValidatorKeywords was asked %d times for one package, want once", asked)
	}
	var uses []string
	for _, r := range m.RuntimeOnly {
		for _, u := range r.Uses {
			uses = append(uses, r.Field.GoName+":"+u.Name)
		}
	}
	if got := strings.Join(uses, " "); got != "SKU:sku Other:sku Other:barcode Other:sku Other:barcode" { // each use, then the alternatives
		t.Errorf("runtime-only uses %q, want the declared keywords of SKU and Other", got)
	}
	var errs []string
	for _, d := range m.Diags {
		switch {
		case d.Severity == model.Warning:
			t.Errorf("a declared keyword warns: %v", d)
		case strings.Contains(d.Msg, `"partcode"`):
			errs = append(errs, d.Msg)
		default:
			t.Errorf("unexpected diagnostic %v", d)
		}
	}
	if len(errs) != 1 || !strings.Contains(errs[0], "modelgen.yaml's validatorKeywords") {
		t.Errorf("the undeclared keyword: want one error naming validatorKeywords, got %q", errs)
	}
}
