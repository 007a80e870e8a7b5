package crd

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/modelgen/modelgen/model"
	mschema "github.com/modelgen/modelgen/schema"
)

// TestBuildResultsAreTheCallers: Build edits the CRDs controller-tools
// built in place, without a copy, because it takes them out of the
// parser's map; a caller that edits a result (or a later Build that edits
// its own) must change nothing another Build returns. The CRDs of a second
// Build on the same context are compared with the first's, rendered before
// the first's were vandalized.
func TestBuildResultsAreTheCallers(t *testing.T) {
	m, err := model.Load(model.Config{Dir: filepath.Join("testdata", "multiversion"), Patterns: []string{"./..."}})
	if err != nil || m.Diags.HasErrors() {
		t.Fatalf("loading: %v %v", err, m.Diags)
	}
	c := genContext(m)
	first, diags := Build(c)
	if diags.HasErrors() || len(first) == 0 {
		t.Fatalf("no CRDs: %v", diags)
	}
	want := renderAll(t, first)
	for _, r := range first {
		r.CRD.Name = "vandalized"
		for i := range r.CRD.Spec.Versions {
			v := &r.CRD.Spec.Versions[i]
			v.Name, v.Storage = "vandalized", false
			root := v.Schema.OpenAPIV3Schema
			root.Description = "vandalized"
			for k, p := range root.Properties {
				p.Description, p.Type = "vandalized", "vandalized"
				for kk, pp := range p.Properties {
					pp.Description = "vandalized"
					p.Properties[kk] = pp
				}
				root.Properties[k] = p
			}
		}
	}
	second, diags := Build(c)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if got := renderAll(t, second); !bytes.Equal(got, want) {
		t.Errorf("a second Build returned what the first's caller edited:\n%s\nwant:\n%s", got, want)
	}
}

func renderAll(t *testing.T, results []Result) []byte {
	t.Helper()
	var out []byte
	for _, r := range results {
		y, err := Render(r.CRD)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, y...)
	}
	return out
}

// TestGenerateLetsEachCRDGo: the backend renders each CRD as soon as it is
// built and checked, and keeps only its bytes: once Generate returns, the
// parser of the context's CRD schemas holds neither a CRD nor the
// flattened schema of a root (which a run that holds every CRD's objects
// at once would hold until its end), and the files are those Build's CRDs
// render to.
func TestGenerateLetsEachCRDGo(t *testing.T) {
	m, err := model.Load(model.Config{Dir: filepath.Join("testdata", "multiversion"), Patterns: []string{"./..."}})
	if err != nil || m.Diags.HasErrors() {
		t.Fatalf("loading: %v %v", err, m.Diags)
	}
	c := genContext(m)
	files, diags := Generator{}.Generate(c)
	if diags.HasErrors() || len(files) == 0 {
		t.Fatalf("no CRDs: %v", diags)
	}
	p := c.Schemas(model.TargetCRD).Parser
	if n := len(p.CustomResourceDefinitions); n != 0 {
		t.Errorf("the parser still holds %d CRDs", n)
	}
	for _, typ := range m.SortedTypes() {
		if _, held := p.FlattenedSchemata[mschema.Ident(typ)]; typ.Resource != nil && held {
			t.Errorf("the parser still holds the flattened schema of root %s", typ.Name)
		}
	}
	results, diags := Build(genContext(m))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	var got []byte
	for _, f := range files {
		got = append(got, f.Data...)
	}
	if want := renderAll(t, results); !bytes.Equal(got, want) {
		t.Errorf("Generate's files are not Build's CRDs rendered:\n%s\nwant:\n%s", got, want)
	}
}
