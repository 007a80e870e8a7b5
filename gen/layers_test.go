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

// TestBackendsImportNoBackend checks that no backend imports another: what
// two backends share lives in the model or in a package under gen/internal
// (gen/ctrun, which runs controller-tools' generators, is such a helper
// too). webhookconfig still reads the webhooks the webhook backend serves
// through that backend's package, the one pair left.
func TestBackendsImportNoBackend(t *testing.T) {
	const mod = "github.com/modelgen/modelgen"
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}:{{join .Imports \" \"}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	helper := func(pkg string) bool {
		return strings.HasPrefix(pkg, mod+"/gen/internal/") || pkg == mod+"/gen/ctrun" || pkg == mod+"/gen/all"
	}
	allowed := map[string]bool{mod + "/gen/webhookconfig -> " + mod + "/gen/webhook": true}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(line, ":")
		if !strings.HasPrefix(pkg, mod+"/gen/") || helper(pkg) {
			continue
		}
		checked++
		for _, imp := range strings.Fields(imports) {
			if strings.HasPrefix(imp, mod+"/gen/") && !helper(imp) && !allowed[pkg+" -> "+imp] {
				t.Errorf("the backend %s imports the backend %s; move what they share to the model or under gen/internal", pkg, imp)
			}
		}
	}
	if checked < 8 {
		t.Errorf("go list found %d backend packages; the test no longer looks at them", checked)
	}
}

// TestBackendsReadNoGoTypes checks that the backends read Go types from the
// model (model.Type.Go, model.TypeRef) and not from go/types: only
// gen/deepcopy, which hands the loaded packages to controller-tools'
// deepcopy generator, imports it.
func TestBackendsReadNoGoTypes(t *testing.T) {
	const mod = "github.com/modelgen/modelgen"
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}:{{join .Imports \" \"}}", "./...", "../schema/...", "../openapi/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	checked := 0
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(line, ":")
		if pkg == mod+"/gen/deepcopy" {
			continue
		}
		checked++
		if slices.Contains(strings.Fields(imports), "go/types") {
			t.Errorf("%s imports go/types; read the model's types (model.Type.Go) instead", pkg)
		}
	}
	if checked < 10 {
		t.Errorf("go list found %d packages; the test no longer looks at them", checked)
	}
}

// TestModelTestsImportNoBackend checks that the model's tests test the
// model alone: the pipeline's wiring is tested where it lives (gen/all,
// internal/cli), not from a lower layer.
func TestModelTestsImportNoBackend(t *testing.T) {
	const mod = "github.com/modelgen/modelgen"
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}:{{join .TestImports \" \"}} {{join .XTestImports \" \"}}", "../model/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	for _, line := range lines {
		pkg, imports, _ := strings.Cut(line, ":")
		for _, imp := range strings.Fields(imports) {
			if strings.HasPrefix(imp, mod+"/gen") || strings.HasPrefix(imp, mod+"/internal/cli") {
				t.Errorf("the tests of %s import %s", pkg, imp)
			}
		}
	}
	if len(lines) < 3 {
		t.Errorf("go list found %d model packages; the test no longer looks at them", len(lines))
	}
}
