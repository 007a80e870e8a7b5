package schema

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelgen/modelgen/model"
)

// TestOnlyAReachedInterfaceIsAnError: a type declared as an interface has no
// schema. A schema that refers to it is an error at its declaration (the
// parser's); one no schema reaches is no error, as with controller-gen.
func TestOnlyAReachedInterfaceIsAnError(t *testing.T) {
	m, err := model.Load(model.Config{Dir: filepath.Join("testdata", "interfaces"), Patterns: []string{"."}})
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range []model.Target{model.TargetCRD, model.TargetOpenAPI} {
		s := Build(m, target)
		var errs []string
		for _, d := range s.Diags.Sorted() {
			errs = append(errs, d.String())
		}
		if len(errs) != 1 || !strings.Contains(errs[0], "types.go:7:") || !strings.Contains(errs[0], "interface") {
			t.Errorf("target %v: want one error, at Reached's declaration (types.go:7), got %d:\n%s", target, len(errs), strings.Join(errs, "\n"))
		}
	}
}
