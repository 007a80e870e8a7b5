//go:build unix

package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelgen/modelgen/cmd/internal/cli"

	"github.com/modelgen/modelgen/internal/testkit"
)

// ioModule copies testdata/io (one kind) into a fresh module and runs
// generate once there; it returns the module's directory.
func ioModule(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	testkit.CopyTree(t, filepath.Join("testdata", "io"), dir)
	testkit.ModuleWithRequirements(t, dir, "example.com/io")
	if r := run("generate", "-C", dir, "./..."); r.code != cli.ExitOK {
		t.Fatalf("first run: %v", r)
	}
	return dir
}

// runWithin runs the CLI and fails the test if it has not answered within
// a minute (a FIFO opened for reading without a writer blocks forever).
func runWithin(t *testing.T, args ...string) result {
	t.Helper()
	done := make(chan result, 1)
	go func() { done <- run(args...) }()
	select {
	case r := <-done:
		return r
	case <-time.After(time.Minute):
		t.Fatalf("modelgen %q has not answered after a minute", args)
		return result{}
	}
}

func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
}

func symlink(t *testing.T, target, path string) {
	t.Helper()
	os.Remove(path)
	if err := os.Symlink(target, path); err != nil {
		t.Skipf("symlink: %v", err)
	}
}

// TestBoundedReads: every file generate reads and did not write this run
// (modelgen.yaml, a header, an output file already on disk) is read only if
// it is a regular file, checked on the opened file, and only up to a bound:
// /dev/zero, a FIFO or a huge file is a positioned error or is replaced,
// never an out-of-memory crash or a hang.
func TestBoundedReads(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole CLI on a scratch module several times (-short)")
	}
	dir := ioModule(t)
	pkg := filepath.Join(dir, "api", "v1")
	config := filepath.Join(pkg, "modelgen.yaml")
	crd := filepath.Join(dir, "config", "crd", "bases", "io.example.com_widgets.yaml")
	doc := filepath.Join(pkg, "openapi.yaml")
	fifo := filepath.Join(dir, "fifo")
	mkfifo(t, fifo)
	gen := func(t *testing.T, args ...string) result {
		return runWithin(t, append(append([]string{"generate"}, args...), "-C", dir, "./...")...)
	}
	saved := map[string][]byte{}
	for _, p := range []string{crd, doc} {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		saved[p] = data
	}
	restore := func() {
		os.Remove(config)
		for p, data := range saved {
			os.Remove(p)
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}

	tests := []struct {
		name  string
		setup func()
		args  []string
		code  int
		want  string
	}{
		{"modelgen.yaml is /dev/zero", func() { symlink(t, "/dev/zero", config) }, nil,
			cli.ExitFail, config + ":1:1: modelgen.yaml: is a character device, not a regular file"},
		{"modelgen.yaml is a FIFO", func() { symlink(t, fifo, config) }, nil,
			cli.ExitFail, config + ":1:1: modelgen.yaml: is a named pipe (FIFO), not a regular file"},
		{"modelgen.yaml is huge", func() { testkit.WriteFile(t, config, "title: x\n"+strings.Repeat("#", 2<<20)) }, nil,
			cli.ExitFail, config + ":1:1: modelgen.yaml: is larger than the 1MiB limit"},
		{"--header-file is /dev/zero", nil, []string{"--header-file", "/dev/zero"},
			cli.ExitUsage, "is a character device, not a regular file"},
		{"--header-file is a FIFO", nil, []string{"--header-file", fifo},
			cli.ExitUsage, "is a named pipe (FIFO), not a regular file"},
		{"the CRD is /dev/zero, --check", func() { symlink(t, "/dev/zero", crd) }, []string{"--check"},
			cli.ExitFail, crd + ": stale"},
		{"the CRD is a FIFO, --check", func() { os.Remove(crd); mkfifo(t, crd) }, []string{"--check"},
			cli.ExitFail, crd + ": is a named pipe (FIFO), not a regular file; move it away"},
		{"the OpenAPI document is /dev/zero", func() { symlink(t, "/dev/zero", doc) }, nil,
			cli.ExitFail, doc + `:1:1: "openapi.yaml" leads outside the module`},
		{"the OpenAPI document is a FIFO", func() { symlink(t, fifo, doc) }, nil,
			cli.ExitFail, doc + `:1:1: "openapi.yaml" is an existing file that modelgen did not generate`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.setup != nil {
				tt.setup()
			}
			defer restore()
			r := gen(t, tt.args...)
			if r.code != tt.code || !strings.Contains(r.stderr, tt.want) {
				t.Errorf("want exit %d and %q, got %v", tt.code, tt.want, r)
			}
		})
	}

	// without --check, a CRD that is a link to /dev/zero is replaced by the
	// generated file (the link, not what it points to)
	symlink(t, "/dev/zero", crd)
	if r := gen(t); r.code != cli.ExitOK {
		t.Fatalf("a run over a CRD that is /dev/zero: %v", r)
	}
	if fi, err := os.Lstat(crd); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("the CRD is not a regular file after the run: %v %v", fi, err)
	}
}

// TestHeaderStaysInTheModule: a committed modelgen.yaml cannot make a run
// read a file outside the module as its header (here through a symbolic
// link to a file holding a secret), and no message quotes a header's
// content, under --check or not.
func TestHeaderStaysInTheModule(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole CLI on a scratch module several times (-short)")
	}
	dir := ioModule(t)
	pkg := filepath.Join(dir, "api", "v1")
	const secret = "s3cr3t-token-value"
	outside := filepath.Join(t.TempDir(), "environ")
	testkit.WriteFile(t, outside, "API_TOKEN="+secret+"\n")
	symlink(t, outside, filepath.Join(dir, "boilerplate.go.txt"))
	testkit.WriteFile(t, filepath.Join(pkg, "modelgen.yaml"), "header: ../../boilerplate.go.txt\n")
	before := testkit.Snapshot(t, dir)
	for _, args := range [][]string{{"--check"}, nil} {
		r := runWithin(t, append(append([]string{"generate"}, args...), "-C", dir, "./...")...)
		want := `modelgen.yaml:1:9: setting "header": "../../boilerplate.go.txt" leads outside the module`
		if r.code != cli.ExitFail || !strings.Contains(r.stderr, want) || strings.Contains(r.stderr+r.stdout, secret) {
			t.Errorf("generate %q: want exit 1 and %q, without the file's content, got %v", args, want, r)
		}
	}
	testkit.SameTree(t, "a refused header", testkit.Snapshot(t, dir), before)

	// inside the module, a header that is not comments is refused at its
	// line, without quoting it; so is one from --header-file (a usage error)
	os.Remove(filepath.Join(dir, "boilerplate.go.txt"))
	testkit.WriteFile(t, filepath.Join(dir, "boilerplate.go.txt"), "API_TOKEN="+secret+"\n// Copyright\n")
	r := runWithin(t, "generate", "--check", "-C", dir, "./...")
	want := filepath.Join(dir, "boilerplate.go.txt") + ":1:1: header (setting \"header\" of " + filepath.Join(pkg, "modelgen.yaml") + "): not a Go comment"
	if r.code != cli.ExitFail || !strings.Contains(r.stderr, want) || strings.Contains(r.stderr+r.stdout, secret) {
		t.Errorf("a header that is not comments: want exit 1 and %q, without its content, got %v", want, r)
	}
	os.Remove(filepath.Join(pkg, "modelgen.yaml"))
	r = runWithin(t, "generate", "--header-file", filepath.Join(dir, "boilerplate.go.txt"), "-C", dir, "./...")
	want = filepath.Join(dir, "boilerplate.go.txt") + ":1:1: not a Go comment"
	if r.code != cli.ExitUsage || !strings.Contains(r.stderr, want) || strings.Contains(r.stderr+r.stdout, secret) {
		t.Errorf("--header-file that is not comments: want exit 2 and %q, without its content, got %v", want, r)
	}
}

// TestHeaderCannotChangeTheBuild: a header with a build constraint would
// take the generated files out of the build, and every later run would fail
// on the file it wrote; it is refused at its line, and nothing is written.
func TestHeaderCannotChangeTheBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole CLI on a scratch module several times (-short)")
	}
	dir := ioModule(t)
	header := filepath.Join(dir, "boilerplate.go.txt")
	for _, text := range []string{"// Copyright\n//go:build ignore\n", "// Copyright\n// +build ignore\n", "// Copyright\n//go:generate echo hi\n"} {
		testkit.WriteFile(t, header, text)
		before := testkit.Snapshot(t, dir)
		r := runWithin(t, "generate", "--header-file", header, "-C", dir, "./...")
		if r.code != cli.ExitUsage || !strings.Contains(r.stderr, header+":2:1: ") {
			t.Errorf("header %q: want exit 2 and an error at %s:2:1, got %v", text, header, r)
		}
		testkit.SameTree(t, "a refused header", testkit.Snapshot(t, dir), before)
	}
}

// TestDirectoryInTheWayWritesNothing: a directory where the deepcopy file
// goes fails the run before anything is replaced: the stale CRD and OpenAPI
// document keep their content.
func TestDirectoryInTheWayWritesNothing(t *testing.T) {
	dir := ioModule(t)
	deepcopy := filepath.Join(dir, "api", "v1", "zz_generated.deepcopy.go")
	testkit.Edit(t, filepath.Join(dir, "api", "v1", "types.go"), "lte=10", "lte=20")
	os.Remove(deepcopy)
	if err := os.Mkdir(deepcopy, 0o755); err != nil {
		t.Fatal(err)
	}
	testkit.WriteFile(t, filepath.Join(deepcopy, "notes.txt"), "in the way\n")
	before := testkit.Snapshot(t, dir)
	r := runWithin(t, "generate", "-C", dir, "./...")
	if r.code != cli.ExitFail || !strings.Contains(r.stderr, deepcopy+": is a directory, not a regular file") {
		t.Errorf("want exit 1 naming the directory in the way, got %v", r)
	}
	testkit.SameTree(t, "a run with a directory in the way", testkit.Snapshot(t, dir), before)
}

// TestMovedOutputDirectory: when crdDir moves, the CRD the earlier run
// wrote is found by its header wherever it is in the module: --check
// reports it, a run removes it; a run of other backends (--only) leaves it,
// and so does every run for a copy under testdata/.
func TestMovedOutputDirectory(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole CLI on a scratch module several times (-short)")
	}
	dir := ioModule(t)
	gen := func(args ...string) result {
		return runWithin(t, append(append([]string{"generate"}, args...), "-C", dir, "./...")...)
	}
	old := filepath.Join(dir, "config", "crd", "bases", "io.example.com_widgets.yaml")
	moved := filepath.Join(dir, "deploy", "crds", "io.example.com_widgets.yaml")
	data, err := os.ReadFile(old)
	if err != nil {
		t.Fatal(err)
	}
	kept := filepath.Join(dir, "testdata", "io.example.com_widgets.yaml")
	if err := os.MkdirAll(filepath.Dir(kept), 0o755); err != nil {
		t.Fatal(err)
	}
	testkit.WriteFile(t, kept, string(data))
	testkit.WriteFile(t, filepath.Join(dir, "api", "v1", "modelgen.yaml"), "crdDir: deploy/crds\n")

	if r := gen("--only", "openapi"); r.code != cli.ExitOK {
		t.Fatalf("--only openapi: %v", r)
	}
	if r := gen("--check", "--only", "openapi"); r.code != cli.ExitOK {
		t.Errorf("--check --only openapi: the CRD is not openapi's: %v", r)
	}
	if _, err := os.Stat(old); err != nil {
		t.Fatalf("--only openapi removed the CRD: %v", err)
	}
	r := gen("--check")
	if r.code != cli.ExitFail || !strings.Contains(r.stderr, old+": no longer generated") {
		t.Errorf("--check after crdDir moved: want exit 1 naming %s, got %v", old, r)
	}
	if r := gen(); r.code != cli.ExitOK {
		t.Fatalf("a run after crdDir moved: %v", r)
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Errorf("the CRD in the old directory is still there: %v", err)
	}
	if _, err := os.Stat(moved); err != nil {
		t.Errorf("no CRD in the new directory: %v", err)
	}
	if _, err := os.Stat(kept); err != nil {
		t.Errorf("the copy under testdata was removed: %v", err)
	}
	if r := gen("--check"); r.code != cli.ExitOK {
		t.Errorf("--check after the run: %v", r)
	}
}
