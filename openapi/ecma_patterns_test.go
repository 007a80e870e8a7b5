package openapi_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelgen/modelgen/model"
	"github.com/modelgen/modelgen/openapi"
)

// TestPatternWithoutECMAFormIsLeftOut: a Go pattern that ECMA-262 cannot
// say without flags ((?m)) is not written, and the run warns at the field;
// the others are translated (\x{...} to surrogate pairs, (?i) to classes).
func TestPatternWithoutECMAFormIsLeftOut(t *testing.T) {
	g := generate(t)
	pk := packageIn(g.model, filepath.Join("testdata", "patterns"))
	_, warnings, err := openapi.Build(g.set, []*model.Package{pk}, openapi.Info{Title: "t", Version: "1"})
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0].String(), "types.go:9:") || !strings.Contains(warnings[0].String(), "(?m)^a$") {
		t.Fatalf("want one warning at types.go:9 about (?m)^a$, got %v", warnings)
	}
	doc := g.docs["patterns"]
	for _, want := range []string{`pattern: ^(?:\uD83D[\uDE00-\uDE4F])$`, `pattern: ^[Kk\u212A][Ee][Ll][Vv][Ii][Nn]$`} {
		if !strings.Contains(string(doc), want) {
			t.Errorf("the document lacks %s:\n%s", want, doc)
		}
	}
	if strings.Contains(string(doc), "(?m)") {
		t.Errorf("the document keeps the multi-line pattern:\n%s", doc)
	}
}
