package gen_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/gen/crd"
	"github.com/modelgen/modelgen/gen/openapidoc"
	"github.com/modelgen/modelgen/internal/testkit"
	"github.com/modelgen/modelgen/internal/yamlout"
	"sigs.k8s.io/yaml"
)

// BenchmarkPhaseYAML times the YAML writing of the OpenAPI document and
// the CRDs of the synthetic package, from their JSON: yamlout's direct
// emitter against sigs.k8s.io/yaml.JSONToYAML (yaml.v2's emitter), which
// give the same bytes.
func BenchmarkPhaseYAML(b *testing.B) {
	m := load(b, testkit.SynthModule(b, benchKinds))
	files, diags := gen.Run(m, gen.DefaultConfigs(m), []gen.Backend{openapidoc.Generator{}, crd.Generator{}})
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	var docs [][]byte
	for _, f := range files {
		if !strings.HasSuffix(f.Path, ".yaml") {
			continue
		}
		js, err := yaml.YAMLToJSON(bytes.TrimPrefix(f.Data, []byte("---\n")))
		if err != nil {
			b.Fatal(err)
		}
		docs = append(docs, js)
	}
	if len(docs) != benchKinds+1 {
		b.Fatalf("%d YAML files, want %d", len(docs), benchKinds+1)
	}
	for _, c := range []struct {
		name string
		emit func([]byte) ([]byte, error)
	}{
		{"direct", yamlout.FromJSON},
		{"yaml.v2", yaml.JSONToYAML},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				for _, js := range docs {
					if _, err := c.emit(js); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
