package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelgen/modelgen/cmd/internal/cli"

	"github.com/modelgen/modelgen/internal/testkit"
)

// The CLI's diagnostics goldens live in testdata/diag/<case>/: a module's
// packages (without go.mod: the test makes one that requires this
// checkout) and stderr.txt, what `modelgen generate ./...` prints there,
// with the case directory's path removed. Every case fails: the run exits 1
// and writes nothing. Regenerate with
//
//	go test ./cmd/internal/cli -run TestDiagnosticGoldens -update
//
// and review the diff.

func TestDiagnosticGoldens(t *testing.T) {
	testkit.DiagnosticGoldens(t, filepath.Join("testdata", "diag"), func(t *testing.T, src string) string {
		dir := t.TempDir()
		testkit.CopyTree(t, src, dir)
		os.Remove(filepath.Join(dir, testkit.DiagnosticsFile))
		testkit.Module(t, dir, "example.com/"+filepath.Base(src))
		before := testkit.Snapshot(t, dir)
		r := run("generate", "-C", dir, "./...")
		if r.code != cli.ExitFail {
			t.Errorf("want exit 1, got %v", r)
		}
		testkit.SameTree(t, "a failed run", testkit.Snapshot(t, dir), before)
		return testkit.StripDir(r.stderr, dir)
	})
}

// TestOutputPathFlags: the path flags get the checks of modelgen.yaml's
// settings, as usage errors (exit 2) naming the flag.
func TestOutputPathFlags(t *testing.T) {
	dir := t.TempDir()
	testkit.CopyTree(t, filepath.Join("testdata", "e2e"), dir)
	testkit.Module(t, dir, "example.com/e2e")
	before := testkit.Snapshot(t, dir)
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--crd-dir", "/etc/crds"}, `--crd-dir: "/etc/crds" is absolute`},
		{[]string{"--crd-dir", "../up"}, `--crd-dir: "../up" (relative to the module root) is outside the module`},
		{[]string{"--openapi-out", "types.go"}, `--openapi-out: "types.go": the OpenAPI document is YAML`},
		{[]string{"--openapi-out", "../../../x.yaml"}, `is outside the module`},
	}
	for _, tt := range tests {
		r := run(append(append([]string{"generate"}, tt.args...), "-C", dir, "./...")...)
		if r.code != cli.ExitUsage || !strings.Contains(r.stderr, tt.want) {
			t.Errorf("generate %q: want exit 2 and %q, got %v", tt.args, tt.want, r)
		}
	}
	testkit.SameTree(t, "refused flags", testkit.Snapshot(t, dir), before)
}

// TestOutputPathThroughSymlink: a directory inside the module that is a
// symbolic link to somewhere outside it does not make an outside path
// acceptable.
func TestOutputPathThroughSymlink(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	testkit.CopyTree(t, filepath.Join("testdata", "e2e"), dir)
	testkit.Module(t, dir, "example.com/e2e")
	if err := os.Symlink(outside, filepath.Join(dir, "config")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	testkit.WriteFile(t, filepath.Join(dir, "orders", "modelgen.yaml"), "crdDir: config/crd\n")
	r := run("generate", "-C", dir, "./...")
	want := filepath.Join(dir, "orders", "modelgen.yaml") + `:1:9: setting "crdDir": "config/crd" leads outside the module`
	if r.code != cli.ExitFail || !strings.Contains(r.stderr, want) {
		t.Errorf("want exit 1 and %q, got %v", want, r)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("the run wrote outside the module: %v", entries)
	}
}

// TestBrokenPackagesFailUnderCheck: a package that does not compile fails
// the run with its positioned errors under --check too (exit 1), and a
// run without --check writes nothing.
func TestBrokenPackagesFailUnderCheck(t *testing.T) {
	for _, name := range []string{"bad-syntax", "bad-type-error"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			testkit.CopyTree(t, filepath.Join("testdata", "diag", name), dir)
			os.Remove(filepath.Join(dir, "stderr.txt"))
			testkit.Module(t, dir, "example.com/"+name)
			before := testkit.Snapshot(t, dir)
			for _, args := range [][]string{{"generate", "--check", "-C", dir, "./..."}, {"generate", "-C", dir, "./..."}} {
				r := run(args...)
				if r.code != cli.ExitFail || !strings.Contains(r.stderr, "types.go:") || strings.Contains(r.stderr, ":0:0") {
					t.Errorf("%q: want exit 1 with positioned errors, got %v", args, r)
				}
			}
			testkit.SameTree(t, "a broken package", testkit.Snapshot(t, dir), before)
		})
	}
}

// TestDeepcopyOfATypeTheRuleLeavesOut: the root's generated DeepCopyInto
// would call one its spec does not get (the package does not ask for
// deepcopy), so the generated file would not compile; the run fails at the
// field, names the marker that fixes it, and writes nothing. (Had the check
// missed it, the type-check of the generated code would still refuse it,
// at a line of a file the run did not write.)
func TestDeepcopyOfATypeTheRuleLeavesOut(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks generated code in scratch modules (-short)")
	}
	dir := t.TempDir()
	testkit.CopyTree(t, filepath.Join("testdata", "gencode"), dir)
	testkit.ModuleWithRequirements(t, dir, "example.com/gencode")
	before := testkit.Snapshot(t, dir)
	r := run("generate", "-C", dir, "./...")
	want := filepath.Join(dir, "api", "types.go") + ":15:2: deepcopy: field Order.Spec: the type OrderSpec gets no deepcopy methods"
	if r.code != cli.ExitFail || !strings.Contains(r.stderr, want) || !strings.Contains(r.stderr, "mark the package (or OrderSpec) with +kubebuilder:object:generate=true") ||
		strings.Contains(r.stderr, "zz_generated.deepcopy.go") {
		t.Errorf("want exit 1 and %q naming the marker, and nothing about the generated file, got %v", want, r)
	}
	testkit.SameTree(t, "generated code that does not compile", testkit.Snapshot(t, dir), before)
}
