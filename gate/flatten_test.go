package gate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// allOfDoc is shaped like a generated kind: allOf [$ref TypeMeta, own
// properties]; COLORS is the request enum.
const allOfDoc = `openapi: 3.0.3
info: {title: t, version: VERSION}
paths:
  /widgets:
    post:
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Widget'}
      responses:
        '200': {description: ok}
components:
  schemas:
    TypeMeta:
      type: object
      properties:
        kind: {type: string}
    Widget:
      allOf:
      - $ref: '#/components/schemas/TypeMeta'
      - type: object
        properties:
          color: {type: string, enum: [COLORS]}
`

// TestAllOfMergedBeforeOasdiff: a request enum narrowed under allOf is
// breaking even with --warn-is-additive (oasdiff alone caps what it finds
// under an unmerged allOf at WARN, all-of-not-flattened).
func TestAllOfMergedBeforeOasdiff(t *testing.T) {
	dir := t.TempDir()
	doc := func(name, version, colors string) {
		data := strings.NewReplacer("VERSION", version, "COLORS", colors).Replace(allOfDoc)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	doc("base.yaml", "1.0.0", "red, green")
	doc("minor.yaml", "1.1.0", "red")
	doc("major.yaml", "2.0.0", "red")
	report, err := Run(t.Context(), Options{Dir: dir, Base: "base.yaml", Revision: "minor.yaml", WarnIsAdditive: true})
	if err != nil {
		t.Fatal(err)
	}
	if report.Verdict.Pass || report.Verdict.Needed != BumpMajor || !strings.Contains(strings.Join(ids(report.Changes), " "), "request-property-enum-value-removed") {
		t.Errorf("narrowed enum under allOf: %+v %+v", report.Verdict, report.Changes)
	}
	if report, err := Run(t.Context(), Options{Dir: dir, Base: "base.yaml", Revision: "major.yaml", WarnIsAdditive: true}); err != nil || !report.Verdict.Pass {
		t.Errorf("a major bump must pass: %v %+v", err, report)
	}
}
