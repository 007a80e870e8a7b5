package openapi_test

import (
	"bytes"
	"path/filepath"
	"testing"

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
		if got, want := openapi.EncodeTree(t, tree), openapi.JSONYAML(t, doc); !bytes.Equal(got, want) {
			t.Errorf("%s: the tree writes %d bytes, the JSON %d", c, len(got), len(want))
		}
	}
}
