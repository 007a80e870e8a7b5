package typecheck_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelgen/modelgen/internal/typecheck"
	"github.com/modelgen/modelgen/model"
)

// scratch writes a module with one package holding a +modelgen:model type,
// and loads it.
func scratch(t *testing.T, types string) (*model.Model, string) {
	t.Helper()
	dir := t.TempDir()
	write := func(name, data string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/scratch\n\ngo 1.26.0\n")
	write("types.go", types)
	m, err := model.Load(model.Config{Dir: dir, Patterns: []string{"."}})
	if err != nil {
		t.Fatal(err)
	}
	if m.Diags.HasErrors() {
		t.Fatal(m.Diags)
	}
	return m, dir
}

const widget = "package scratch\n\n// Widget is a domain type.\n// +modelgen:model\ntype Widget struct {\n\tName string `json:\"name\"`\n}\n"

// TestGeneratedCodeThatDoesNotCompile: a generated file that does not
// compile beside the user's code is an error in that file, named as
// generated code.
func TestGeneratedCodeThatDoesNotCompile(t *testing.T) {
	m, dir := scratch(t, widget)
	path := filepath.Join(dir, "zz_generated.widget.go")
	src := "package scratch\n\nfunc (w *Widget) Name() string { return w.Name }\n"
	diags := typecheck.Start(m).Compile(map[string][]byte{path: []byte(src)})
	if !diags.HasErrors() {
		t.Fatalf("no error for a method that clashes with a field: %v", diags)
	}
	found := false
	for _, d := range diags {
		found = found || d.Pos.File == path && d.Pos.Line == 3 && strings.HasPrefix(d.Msg, "the generated code does not compile: ")
	}
	if !found {
		t.Errorf("want an error at the generated file's line 3, got %v", diags)
	}
}

// TestUserCodeIsCheckedWithBodies: a type error in a function body of the
// user's package is an error even when the generated files compile.
func TestUserCodeIsCheckedWithBodies(t *testing.T) {
	m, dir := scratch(t, widget+"\nfunc broken() int { return \"no\" }\n")
	path := filepath.Join(dir, "zz_generated.widget.go")
	diags := typecheck.Start(m).Compile(map[string][]byte{path: []byte("package scratch\n")})
	if !diags.HasErrors() || diags[0].Pos.File != filepath.Join(dir, "types.go") || diags[0].Pos.Line != 9 {
		t.Fatalf("want the body's error at types.go:9, got %v", diags)
	}
}
