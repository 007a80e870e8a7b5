package model_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelgen/modelgen/internal/testkit"
	"github.com/modelgen/modelgen/model"
)

// countGoLists puts a go command on PATH that notes each package listing
// (go list -deps, as go/packages runs it) in a file, and returns a function
// that counts them.
func countGoLists(t *testing.T) func() int {
	t.Helper()
	real, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	bin, log := t.TempDir(), filepath.Join(t.TempDir(), "lists")
	testkit.WriteFile(t, filepath.Join(bin, "go"), "#!/bin/sh\ncase \" $* \" in *\" -deps=true \"*) echo list >>"+log+";; esac\nexec "+real+" \"$@\"\n")
	if err := os.Chmod(filepath.Join(bin, "go"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(filepath.ListSeparator)+os.Getenv("PATH"))
	return func() int {
		data, _ := os.ReadFile(log)
		return strings.Count(string(data), "list\n")
	}
}

func rootPaths(m *model.Model) []string {
	var out []string
	for _, p := range m.Loaded {
		out = append(out, p.PkgPath)
	}
	slices.Sort(out)
	return out
}

const loadRootsType = "package %s\n\n// T is a domain type.\n// +modelgen:model\ntype T struct {\n\tA string `json:\"a\"`\n}\n"

// TestModuleRootIsListedOnce: `./...` at a module's root is listed by one
// go list (controller-tools' loader alone lists it twice: its walk for
// nested modules finds the root's own go.mod), with the packages the
// pattern names.
func TestModuleRootIsListedOnce(t *testing.T) {
	lists := countGoLists(t)
	dir := t.TempDir()
	testkit.WriteFile(t, filepath.Join(dir, "go.mod"), "module example.com/m\n\ngo 1.26.0\n")
	testkit.WriteFile(t, filepath.Join(dir, "api", "t.go"), strings.ReplaceAll(loadRootsType, "%s", "api"))
	testkit.WriteFile(t, filepath.Join(dir, "other", "t.go"), strings.ReplaceAll(loadRootsType, "%s", "other"))
	m, err := model.Load(model.Config{Dir: dir, Patterns: []string{"./..."}})
	if err != nil {
		t.Fatal(err)
	}
	if got := rootPaths(m); !slices.Equal(got, []string{"example.com/m/api", "example.com/m/other"}) {
		t.Errorf("roots: %v", got)
	}
	if n := lists(); n != 1 {
		t.Errorf("want one go list of the module, got %d", n)
	}
}

// TestModuleRootLoadsWhatThePatternNames: where the module's path as a
// pattern names more than its directory does (a required module whose
// path extends it, outside the directory), and where a module is nested
// below the root, the load is the pattern's as given.
func TestModuleRootLoadsWhatThePatternNames(t *testing.T) {
	base := t.TempDir()
	dir, sub := filepath.Join(base, "m"), filepath.Join(base, "sub")
	testkit.WriteFile(t, filepath.Join(dir, "go.mod"), "module example.com/m\n\ngo 1.26.0\n\nrequire example.com/m/sub v0.0.0\n\nreplace example.com/m/sub => ../sub\n")
	testkit.WriteFile(t, filepath.Join(dir, "api", "t.go"), "package api\n\nimport _ \"example.com/m/sub/x\"\n\n"+strings.TrimPrefix(strings.ReplaceAll(loadRootsType, "%s", "api"), "package api\n\n"))
	testkit.WriteFile(t, filepath.Join(sub, "go.mod"), "module example.com/m/sub\n\ngo 1.26.0\n")
	testkit.WriteFile(t, filepath.Join(sub, "x", "x.go"), "package x\n\n// X is a number.\ntype X int\n")
	m, err := model.Load(model.Config{Dir: dir, Patterns: []string{"./..."}})
	if err != nil {
		t.Fatal(err)
	}
	if got := rootPaths(m); !slices.Equal(got, []string{"example.com/m/api"}) {
		t.Errorf("a module outside the directory: roots %v, want example.com/m/api alone", got)
	}
	// a nested module is loaded too, as the loader's walk finds it
	dir = t.TempDir()
	testkit.WriteFile(t, filepath.Join(dir, "go.mod"), "module example.com/m\n\ngo 1.26.0\n")
	testkit.WriteFile(t, filepath.Join(dir, "api", "t.go"), strings.ReplaceAll(loadRootsType, "%s", "api"))
	testkit.WriteFile(t, filepath.Join(dir, "nested", "go.mod"), "module example.com/nested\n\ngo 1.26.0\n")
	testkit.WriteFile(t, filepath.Join(dir, "nested", "n.go"), strings.ReplaceAll(loadRootsType, "%s", "nested"))
	m, err = model.Load(model.Config{Dir: dir, Patterns: []string{"./..."}})
	if err != nil {
		t.Fatal(err)
	}
	if got := rootPaths(m); !slices.Equal(got, []string{"example.com/m/api", "example.com/nested"}) {
		t.Errorf("a nested module: roots %v", got)
	}
}
