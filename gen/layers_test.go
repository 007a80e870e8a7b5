package gen_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestOnlyModelParsesTags checks the layering of the pipeline over the
// import graph (go list -deps): the tag parsers model/statetag and
// model/accesstag are imported by model alone, so every backend (gen/...,
// schema, openapi, openapi/gate), the CLI and the agreement harness read
// the resolved model and none of them parses a tag again. The schema
// package, which the backends call, imports no backend.
func TestOnlyModelParsesTags(t *testing.T) {
	const mod = "github.com/modelgen/modelgen"
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}:{{join .Imports \" \"}}", "../...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	parsers := []string{mod + "/model/statetag", mod + "/model/accesstag"}
	backends := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(line, ":")
		if !strings.HasPrefix(pkg, mod+"/") {
			continue
		}
		if isBackend(mod, pkg) {
			backends++
		}
		for _, imp := range strings.Fields(imports) {
			if slices.Contains(parsers, imp) && pkg != mod+"/model" {
				t.Errorf("%s imports the tag parser %s; read the resolved model (model.Field.Machine, model.Field.Access) instead", pkg, imp)
			}
			if pkg == mod+"/schema" && strings.HasPrefix(imp, mod+"/gen") {
				t.Errorf("schema imports the backend %s: a lower layer reaches up", imp)
			}
		}
	}
	if backends < 8 {
		t.Errorf("go list found %d backend packages; the test no longer looks at them", backends)
	}
}

func isBackend(mod, pkg string) bool {
	for _, p := range []string{"/gen/", "/schema", "/openapi"} {
		if strings.HasPrefix(pkg, mod+p) {
			return true
		}
	}
	return false
}
