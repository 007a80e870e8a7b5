package cli_test

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"
	"sigs.k8s.io/yaml"

	"github.com/modelgen/modelgen/cmd/internal/cli"

	"github.com/modelgen/modelgen/internal/testkit"
)

type result struct {
	code           int
	stdout, stderr string
}

func run(args ...string) result {
	var out, errb bytes.Buffer
	code := cli.Run(args, strings.NewReader(""), &out, &errb)
	return result{code, out.String(), errb.String()}
}

func (r result) String() string {
	return fmt.Sprintf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
}

func TestVersion(t *testing.T) {
	r := run("version")
	if r.code != cli.ExitOK || !regexp.MustCompile(`^modelgen \S+\n$`).MatchString(r.stdout) || r.stderr != "" {
		t.Errorf("modelgen version: %v", r)
	}
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		args   []string
		stderr string
	}{
		{nil, "Usage:"},
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"generate", "--only", "nosuch", "."}, `unknown backend "nosuch"`},
		{[]string{"generate", "--no-such-flag"}, "flag provided but not defined"},
	}
	for _, tt := range tests {
		r := run(tt.args...)
		if r.code != cli.ExitUsage || !strings.Contains(r.stderr, tt.stderr) {
			t.Errorf("modelgen %q: want exit 2 and %q on stderr, got %v", tt.args, tt.stderr, r)
		}
	}
}

// position finds where text starts in a file, as line and byte column.
func position(t *testing.T, path, text string) (line, col int) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(data), "\n") {
		if c := strings.Index(l, text); c >= 0 {
			return i + 1, c + 1
		}
	}
	t.Fatalf("%q not in %s", text, path)
	return 0, 0
}

// schemaOf reads one property of one component from a generated document.
func schemaOf(t *testing.T, path, component, property string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Components struct {
			Schemas map[string]struct {
				Properties map[string]map[string]any `json:"properties"`
			} `json:"schemas"`
		} `json:"components"`
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	p := doc.Components.Schemas[component].Properties[property]
	if p == nil {
		t.Fatalf("%s: no %s.%s", path, component, property)
	}
	return p
}

// TestGenerateEndToEnd runs the CLI in process over a fixture module with
// two packages: write, check, go stale, fail on a malformed tag without
// touching anything, recover.
func TestGenerateEndToEnd(t *testing.T) {
	dir := t.TempDir()
	testkit.CopyTree(t, filepath.Join("testdata", "e2e"), dir)
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/e2e\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	orders := filepath.Join(dir, "orders", "openapi.yaml")
	people := filepath.Join(dir, "people", "openapi.yaml")
	gen := func(extra ...string) result {
		return run(append(append([]string{"generate"}, extra...), "-C", dir, "./...")...)
	}

	// 1. a first run writes one document per package
	if r := gen(); r.code != cli.ExitOK {
		t.Fatalf("first run: %v", r)
	}
	if got := schemaOf(t, orders, "Order", "count"); got["maximum"] != 10.0 || got["minimum"] != 1.0 {
		t.Errorf("Order.count = %v, want minimum 1 and maximum 10", got)
	}
	if got := schemaOf(t, people, "Person", "name"); got["maxLength"] != 64.0 {
		t.Errorf("Person.name = %v, want maxLength 64", got)
	}
	written := testkit.Snapshot(t, dir)
	for name := range written {
		if strings.Contains(name, ".tmp-") {
			t.Errorf("temporary file left behind: %s", name)
		}
	}

	// 2. --check on fresh output passes, and a second run changes nothing
	if r := gen("--check"); r.code != cli.ExitOK {
		t.Errorf("--check after generate: %v", r)
	}
	if r := gen(); r.code != cli.ExitOK {
		t.Errorf("second run: %v", r)
	}
	testkit.SameTree(t, "second run", testkit.Snapshot(t, dir), written)

	// 3. a changed tag makes exactly the orders document stale; --check
	// names it, exits 1 and writes nothing
	testkit.Edit(t, filepath.Join(dir, "orders", "types.go"), "lte=10", "lte=20")
	before := testkit.Snapshot(t, dir)
	r := gen("--check")
	if r.code != cli.ExitFail || !strings.Contains(r.stderr, orders+": stale") || strings.Contains(r.stderr, people) {
		t.Errorf("--check with a changed tag: want exit 1 naming %s only, got %v", orders, r)
	}
	testkit.SameTree(t, "--check", testkit.Snapshot(t, dir), before)

	// 4. a malformed tag in the other package: a positioned error, exit 1,
	// and nothing written, not even the orders document that is stale
	peopleGo := filepath.Join(dir, "people", "types.go")
	testkit.Edit(t, peopleGo, "lte=150", "lte=old")
	line, col := position(t, peopleGo, "lte=old")
	before = testkit.Snapshot(t, dir)
	r = gen()
	want := fmt.Sprintf("%s:%d:%d: validate: ", peopleGo, line, col)
	if r.code != cli.ExitFail || !strings.Contains(r.stderr, want) || !strings.Contains(r.stderr, "nothing written") {
		t.Errorf("malformed tag: want exit 1 and %q on stderr, got %v", want, r)
	}
	testkit.SameTree(t, "failed run", testkit.Snapshot(t, dir), before)

	// 5. fixed: the run writes the new bound and --check passes again
	testkit.Edit(t, peopleGo, "lte=old", "lte=150")
	if r := gen(); r.code != cli.ExitOK {
		t.Fatalf("run after the fix: %v", r)
	}
	if got := schemaOf(t, orders, "Order", "count"); got["maximum"] != 20.0 {
		t.Errorf("Order.count after the edit = %v, want maximum 20", got)
	}
	if r := gen("--check"); r.code != cli.ExitOK {
		t.Errorf("--check after the fix: %v", r)
	}
}

// generatedOutput reports whether a file in the examples is something a
// run writes, rather than input: everything except hand-written Go, module
// files and settings.
func generatedOutput(path string, data []byte) bool {
	switch filepath.Base(path) {
	case "go.mod", "go.sum", "modelgen.yaml":
		return false
	}
	if strings.HasSuffix(path, ".go") {
		return bytes.HasPrefix(data, []byte("// Code generated"))
	}
	return true
}

// examplesCopy copies the examples module into a fresh directory without
// its generated files, in a workspace with this checkout as the repository's
// go.work has it (the examples module is kept tidy for the workspace, not on
// its own), and returns the copy's directory.
func examplesCopy(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	dir := filepath.Join(work, "examples")
	testkit.CopyTree(t, filepath.Join(root, "examples"), dir)
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err == nil && generatedOutput(path, data) {
			err = os.Remove(path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	// the replace of modelgen is relative to the checkout: point it here
	gomod := filepath.Join(dir, "go.mod")
	data, err := os.ReadFile(gomod)
	if err != nil {
		t.Fatal(err)
	}
	mf, err := modfile.Parse(gomod, data, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range mf.Replace {
		if r.Old.Path == "github.com/modelgen/modelgen" {
			if err := mf.AddReplace(r.Old.Path, r.Old.Version, root, ""); err != nil {
				t.Fatal(err)
			}
		}
	}
	if data, err = mf.Format(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(gomod, data, 0o644); err != nil {
		t.Fatal(err)
	}
	// the workspace: the repository's go.work with its uses rewritten
	wf, err := os.ReadFile(filepath.Join(root, "go.work"))
	if err != nil {
		t.Fatal(err)
	}
	ws, err := modfile.ParseWork("go.work", wf, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range slices.Clone(ws.Use) {
		path := filepath.Join(root, u.Path)
		if filepath.Clean(u.Path) == "examples" {
			path = dir
		}
		if err := ws.AddUse(path, ""); err != nil {
			t.Fatal(err)
		}
		if err := ws.DropUse(u.Path); err != nil {
			t.Fatal(err)
		}
	}
	ws.Cleanup()
	if err := os.WriteFile(filepath.Join(work, "go.work"), modfile.Format(ws.Syntax), 0o644); err != nil {
		t.Fatal(err)
	}
	if sum, err := os.ReadFile(filepath.Join(root, "go.work.sum")); err == nil {
		if err := os.WriteFile(filepath.Join(work, "go.work.sum"), sum, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestDeterministicExamples: two runs over fresh copies of the examples
// produce byte-identical trees, and a run over its own output (what CI's
// generate --check does after a fresh generate) changes nothing.
func TestDeterministicExamples(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the examples module three times")
	}
	a, b := examplesCopy(t), examplesCopy(t)
	inputs := testkit.Snapshot(t, a)
	for _, dir := range []string{a, b} {
		if r := run("generate", "-C", dir, "./..."); r.code != cli.ExitOK {
			t.Fatalf("generate in %s: %v", dir, r)
		}
	}
	treeA := testkit.Snapshot(t, a)
	if len(treeA) == len(inputs) {
		t.Fatalf("the run wrote nothing into %s", a)
	}
	t.Run("fresh copies agree", func(t *testing.T) {
		testkit.SameTree(t, "two fresh runs", testkit.Snapshot(t, b), treeA)
	})
	t.Run("a rerun changes nothing", func(t *testing.T) {
		if r := run("generate", "--check", "-C", a, "./..."); r.code != cli.ExitOK {
			t.Errorf("generate --check right after a fresh generate: %v", r)
		}
	})
}

// TestOnlyJudgesAndRemovesItsOwnFiles: a run of some backends (--only)
// leaves the other backends' files alone, both when writing and under
// --check, and removes only its own stale files.
func TestOnlyJudgesAndRemovesItsOwnFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole CLI on a scratch module several times (-short)")
	}
	dir := t.TempDir()
	testkit.CopyTree(t, filepath.Join("testdata", "only"), dir)
	testkit.Module(t, dir, "example.com/only")
	gen := func(extra ...string) result {
		return run(append(append([]string{"generate"}, extra...), "-C", dir, "./...")...)
	}
	machine := filepath.Join(dir, "tickets", "zz_generated.statemachine.go")
	doc := filepath.Join(dir, "tickets", "openapi.yaml")
	if r := gen(); r.code != cli.ExitOK {
		t.Fatalf("first run: %v", r)
	}
	for _, f := range []string{machine, doc} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("the first run did not write %s: %v", f, err)
		}
	}
	written := testkit.Snapshot(t, dir)

	// 1. --only openapi keeps the state machine's files
	if r := gen("--only", "openapi"); r.code != cli.ExitOK {
		t.Fatalf("--only openapi: %v", r)
	}
	testkit.SameTree(t, "--only openapi over fresh output", testkit.Snapshot(t, dir), written)

	// 2. a stale state machine file is not openapi's concern
	testkit.Edit(t, machine, "package tickets", "package tickets\n\n// edited")
	if r := gen("--check", "--only", "openapi"); r.code != cli.ExitOK {
		t.Errorf("--check --only openapi with a stale state machine file: %v", r)
	}
	if r := gen("--check", "--only", "statemachine"); r.code != cli.ExitFail || !strings.Contains(r.stderr, machine+": stale") {
		t.Errorf("--check --only statemachine with a stale state machine file: want exit 1 naming it, got %v", r)
	}

	// 3. without the state tag, the machine's file is the statemachine
	// backend's orphan, not openapi's
	testkit.Edit(t, filepath.Join(dir, "tickets", "types.go"), ` state:"initial=Open;Open->Closed:Close"`, "")
	if r := gen("--only", "openapi"); r.code != cli.ExitOK {
		t.Fatalf("--only openapi without the state tag: %v", r)
	}
	if _, err := os.Stat(machine); err != nil {
		t.Errorf("--only openapi removed the state machine's file: %v", err)
	}
	if r := gen("--check", "--only", "openapi"); r.code != cli.ExitOK {
		t.Errorf("--check --only openapi after --only openapi: %v", r)
	}
	r := gen("--check", "--only", "statemachine")
	if r.code != cli.ExitFail || !strings.Contains(r.stderr, machine+": no longer generated") {
		t.Errorf("--check --only statemachine: want exit 1 naming %s, got %v", machine, r)
	}
	if r := gen("--only", "statemachine"); r.code != cli.ExitOK {
		t.Fatalf("--only statemachine: %v", r)
	}
	if _, err := os.Stat(machine); !os.IsNotExist(err) {
		t.Errorf("--only statemachine kept its orphan: %v", err)
	}
	if r := gen("--check"); r.code != cli.ExitOK {
		t.Errorf("--check after both runs: %v", r)
	}
}

// TestCheckDiffAndHeaderFile: --check prints a unified diff of a stale
// file; --header-file heads the generated Go files with a licence, and a
// later run without it keeps the licence and writes nothing.
func TestCheckDiffAndHeaderFile(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole CLI on a scratch module several times (-short)")
	}
	dir := t.TempDir()
	testkit.CopyTree(t, filepath.Join("testdata", "only"), dir)
	testkit.Module(t, dir, "example.com/only")
	gen := func(extra ...string) result {
		return run(append(append([]string{"generate"}, extra...), "-C", dir, "./...")...)
	}
	if r := gen(); r.code != cli.ExitOK {
		t.Fatalf("first run: %v", r)
	}
	doc := filepath.Join(dir, "tickets", "openapi.yaml")
	testkit.Edit(t, doc, "openapi: 3.0.3", "openapi: 3.0.3\n# edited by hand")
	r := gen("--check")
	if r.code != cli.ExitFail || !strings.Contains(r.stderr, "(on disk)") || !strings.Contains(r.stderr, "\n-# edited by hand\n") {
		t.Errorf("--check shows no diff of the stale file: %v", r)
	}
	header := filepath.Join(dir, "boilerplate.go.txt")
	if err := os.WriteFile(header, []byte("// Copyright 2026 Example Authors.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := gen("--header-file", header); r.code != cli.ExitOK {
		t.Fatalf("--header-file: %v", r)
	}
	machine := filepath.Join(dir, "tickets", "zz_generated.statemachine.go")
	data, err := os.ReadFile(machine)
	if err != nil || !strings.HasPrefix(string(data), "// Copyright 2026 Example Authors.\n\n// Code generated by modelgen. DO NOT EDIT.\n") {
		t.Fatalf("the generated Go file does not start with the header: %q %v", data[:min(len(data), 120)], err)
	}
	if r := gen(); r.code != cli.ExitOK || !strings.Contains(r.stdout, " 0 files written") {
		t.Errorf("a run without the flag does not keep the header: %v", r)
	}
	if r := gen("--check"); r.code != cli.ExitOK {
		t.Errorf("--check after keeping the header: %v", r)
	}
}
