package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelgen/modelgen/cmd/internal/cli"

	"github.com/modelgen/modelgen/internal/testkit"
)

// TestBodyErrorInModelPackage: a type error in a function body of a
// package the model's types come from (here an imported package of the
// module, not a root of the run) fails the run, also when the run has
// nothing to change: the packages are type-checked from source on every
// run, function bodies included.
func TestBodyErrorInModelPackage(t *testing.T) {
	dir := t.TempDir()
	testkit.Module(t, dir, "example.com/bodies")
	for path, src := range map[string]string{
		"api/types.go": `package api

import "example.com/bodies/shared"

// Order is a model.
// +modelgen:model
type Order struct {
	Item shared.Item ` + "`json:\"item\"`" + `
}
`,
		"shared/item.go": `package shared

// Item is shared.
type Item struct {
	Name string ` + "`json:\"name\" validate:\"required\"`" + `
}

func count() int { return 1 }
`,
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, path)), 0o755); err != nil {
			t.Fatal(err)
		}
		testkit.WriteFile(t, filepath.Join(dir, path), src)
	}
	if r := run("generate", "-C", dir, "./api"); r.code != cli.ExitOK {
		t.Fatalf("first run: want exit 0, got %v", r)
	}
	item := filepath.Join(dir, "shared", "item.go")
	data, _ := os.ReadFile(item)
	testkit.WriteFile(t, item, strings.Replace(string(data), "return 1", `return "many"`, 1))
	before := testkit.Snapshot(t, dir)
	for _, args := range [][]string{{"generate", "-C", dir, "./api"}, {"generate", "--check", "-C", dir, "./api"}} {
		r := run(args...)
		want := filepath.Join("shared", "item.go") + `:8:27: cannot use "many"`
		if r.code != cli.ExitFail || !strings.Contains(r.stderr, want) {
			t.Errorf("%q: want exit 1 and %q, got %v", args, want, r)
		}
	}
	testkit.SameTree(t, "a package that does not compile", testkit.Snapshot(t, dir), before)
}
