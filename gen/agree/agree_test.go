package agree_test

import (
	"strings"
	"testing"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/gen/agree"
	"github.com/modelgen/modelgen/model"
)

// TestRefusesTheApplicationsKeywords: the agreement test runs
// validator.New() on a model loaded without modelgen.yaml, so for a package
// whose tags use a keyword the application registers itself it could only
// fail; the run says so at the use and writes no test.
func TestRefusesTheApplicationsKeywords(t *testing.T) {
	m, err := model.Load(model.Config{Patterns: []string{"./testdata/parts"}, ValidatorKeywords: func(string) []string { return []string{"sku"} }})
	if err != nil || m.Diags.HasErrors() {
		t.Fatal(err, m.Diags)
	}
	configs := map[string]gen.Config{m.Packages[0].Path: (gen.Config{}).WithOwn(agree.Settings{Agree: true})}
	files, diags := agree.Generator{}.Generate(&gen.Context{Model: m, Configs: configs})
	if len(files) > 0 || !strings.Contains(diags.Error(), `parts/types.go:9:44: agree: the agreement test cannot judge "sku"`) {
		t.Errorf("want no test and an error at sku, got %d files and %v", len(files), diags)
	}
}
