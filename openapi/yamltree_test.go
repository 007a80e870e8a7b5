package openapi_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/modelgen/modelgen/internal/yamlout"
	"github.com/modelgen/modelgen/model"
	"github.com/modelgen/modelgen/openapi"
)

// TestYAMLTreeIsTheJSONTree: for the document of every golden case, the
// tree read off kin-openapi's MarshalYAML values is taken (no fallback)
// and writes the bytes of json.Marshal then yamlout.FromJSON.
func TestYAMLTreeIsTheJSONTree(t *testing.T) {
	g := generate(t)
	for _, c := range caseNames(t) {
		pk := packageIn(g.model, filepath.Join("testdata", c))
		doc, err := openapi.Document(g.set, []*model.Package{pk}, openapi.Info{Title: "modelgen test " + c, Version: "1.2.3"})
		if err != nil {
			t.Fatal(err)
		}
		tree, ok := openapi.JSONTree(doc)
		if !ok {
			t.Errorf("%s: the document's tree fell back to JSON", c)
			continue
		}
		js, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		want, err := yamlout.FromJSON(js)
		if err != nil {
			t.Fatal(err)
		}
		got, err := yamlout.Encode(tree)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: the tree writes %d bytes, the JSON %d", c, len(got), len(want))
		}
	}
}
