package openapidoc_test

import (
	"path/filepath"
	"testing"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/gen/openapidoc"
	"github.com/modelgen/modelgen/internal/testkit"
	"github.com/modelgen/modelgen/internal/testkit/diagtest"
	"github.com/modelgen/modelgen/model"
)

// TestDiagnostics compares what the OpenAPI backend reports on each
// testdata/diag/<case> (CEL rules of markers that the documents would
// carry but that do not compile) with the case's stderr.txt; go test
// -update rewrites them.
func TestDiagnostics(t *testing.T) {
	testkit.DiagnosticGoldens(t, filepath.Join("testdata", "diag"), func(t *testing.T, dir string) string {
		m, err := model.Load(model.Config{Dir: dir, Patterns: []string{"./..."}})
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Diags) > 0 {
			t.Fatalf("the case's diagnostics are the backend's, but loading it says:\n%v", m.Diags)
		}
		configs := map[string]gen.Config{}
		for _, pk := range m.Packages {
			configs[pk.Path] = gen.DefaultConfig(pk)
		}
		_, diags := gen.Run(m, configs, []gen.Backend{openapidoc.Generator{}})
		return diagtest.Render(t, diags, dir, nil)
	})
}
