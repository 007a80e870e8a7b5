package testkit

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// ModulePath is the module every scratch module requires.
const ModulePath = "github.com/modelgen/modelgen"

// Root is the directory of this checkout of modelgen: the nearest
// directory, from the working directory up, whose go.mod declares
// ModulePath.
func Root(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if data, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && modulePath(string(data)) == ModulePath {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatalf("no go.mod of %s above the working directory", ModulePath)
		}
		dir = parent
	}
}

func modulePath(gomod string) string {
	for _, line := range strings.Split(gomod, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}

// Module makes dir the module named module, requiring this checkout of
// modelgen (a replace directive), without a go.sum: what the go command
// says of a package importing anything but modelgen's own packages is part
// of what the test sees.
func Module(t testing.TB, dir, module string) {
	t.Helper()
	WriteFile(t, filepath.Join(dir, "go.mod"), fmt.Sprintf("module %s\n\ngo 1.26.0\n\nrequire %s v0.0.0\n\nreplace %s => %s\n", module, ModulePath, ModulePath, Root(t)))
}

// ModuleWithSum is Module with this checkout's go.sum, so that the go
// command, run with -mod=mod, resolves modelgen's own requirements from
// the module cache.
func ModuleWithSum(t testing.TB, dir, module string) {
	t.Helper()
	Module(t, dir, module)
	WriteFile(t, filepath.Join(dir, "go.sum"), ReadFile(t, filepath.Join(Root(t), "go.sum")))
}

// ModuleWithRequirements makes dir the module named module with this
// checkout's requirements and go.sum (so that its packages may import
// Kubernetes' API types, resolved offline from the module cache), requiring
// this checkout of modelgen.
func ModuleWithRequirements(t testing.TB, dir, module string) {
	t.Helper()
	root := Root(t)
	mod := ReadFile(t, filepath.Join(root, "go.mod"))
	_, rest, _ := strings.Cut(mod, "\n")
	WriteFile(t, filepath.Join(dir, "go.mod"), "module "+module+"\n"+rest+"\nrequire "+ModulePath+" v0.0.0\n\nreplace "+ModulePath+" => "+root+"\n")
	WriteFile(t, filepath.Join(dir, "go.sum"), ReadFile(t, filepath.Join(root, "go.sum")))
}

// ExportListLog puts a go command first on PATH that runs the real one and
// appends "export" to the returned file for each go list -export it runs,
// so that a test can count the export data's lists.
func ExportListLog(t testing.TB) string {
	t.Helper()
	real, err := exec.LookPath("go")
	if err != nil {
		t.Fatal(err)
	}
	bin, log := t.TempDir(), filepath.Join(t.TempDir(), "lists")
	WriteFile(t, filepath.Join(bin, "go"), "#!/bin/sh\ncase \" $* \" in *\" -export \"*) echo export >>"+log+";; esac\nexec "+real+" \"$@\"\n")
	if err := os.Chmod(filepath.Join(bin, "go"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(filepath.ListSeparator)+os.Getenv("PATH"))
	return log
}

// UTF8Module writes into dir the module example.com/scratch: one package
// with a model type whose method imports unicode/utf8, a dependency whose
// export data the build cache may hold.
func UTF8Module(t testing.TB, dir string) {
	t.Helper()
	WriteFile(t, filepath.Join(dir, "go.mod"), "module example.com/scratch\n\ngo 1.26.0\n")
	WriteFile(t, filepath.Join(dir, "types.go"), "package scratch\n\nimport \"unicode/utf8\"\n\n"+
		"// Widget is a domain type.\n// +modelgen:model\ntype Widget struct {\n\tName string `json:\"name\"`\n}\n\n"+
		"// Width is the width of the name.\nfunc (w Widget) Width() int { return utf8.RuneCountInString(w.Name) }\n")
}
