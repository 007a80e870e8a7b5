package testkit_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelgen/modelgen/internal/testkit"
)

// recorder is a testing.TB that records failures instead of stopping.
type recorder struct {
	testing.TB
	failed []string
}

func (r *recorder) Helper()                   {}
func (r *recorder) Errorf(f string, a ...any) { r.failed = append(r.failed, f) }

func TestSameTreeNamesEachDifference(t *testing.T) {
	r := &recorder{TB: t}
	testkit.SameTree(r, "run", map[string]string{"a": "1", "b": "2", "new": ""}, map[string]string{"a": "1", "b": "3", "gone": ""})
	if got := strings.Join(r.failed, ","); got != "%s: %s changed,%s: %s is gone,%s: %s appeared" {
		t.Errorf("SameTree reported %s", got)
	}
}

func TestFilesRoundTrip(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteFile(t, filepath.Join(dir, "src", "x", "a.txt"), "hello")
	testkit.CopyTree(t, filepath.Join(dir, "src"), filepath.Join(dir, "dst"))
	testkit.Edit(t, filepath.Join(dir, "dst", "x", "a.txt"), "hello", "bye")
	got := testkit.Snapshot(t, filepath.Join(dir, "dst"))
	if len(got) != 1 || got["x/a.txt"] != "bye" {
		t.Errorf("snapshot %v", got)
	}
	if s := testkit.Replace(t, "a b a", "a", "c", "b", "d"); s != "c d c" {
		t.Errorf("Replace: %q", s)
	}
}

func TestCited(t *testing.T) {
	path := filepath.Join(t.TempDir(), "doc.md")
	testkit.WriteFile(t, path, "This holds for 4,697 documents and 7 kinds.\n")
	if got := testkit.Cited(t, path, `(\d[\d,]*) documents and (\d+) kinds`); len(got) != 2 || got[0] != 4697 || got[1] != 7 {
		t.Errorf("Cited: %v", got)
	}
}

func TestRootAndModule(t *testing.T) {
	root := testkit.Root(t)
	if !strings.HasSuffix(filepath.ToSlash(filepath.Join(root, "internal", "testkit")), "/internal/testkit") {
		t.Fatalf("root %s", root)
	}
	dir := t.TempDir()
	testkit.ModuleWithSum(t, dir, "example.com/x")
	mod := testkit.ReadFile(t, filepath.Join(dir, "go.mod"))
	if !strings.Contains(mod, "replace github.com/modelgen/modelgen => "+root+"\n") || !strings.Contains(mod, "module example.com/x\n") {
		t.Errorf("go.mod:\n%s", mod)
	}
	if testkit.ReadFile(t, filepath.Join(dir, "go.sum")) != testkit.ReadFile(t, filepath.Join(root, "go.sum")) {
		t.Error("the scratch module's go.sum is not the checkout's")
	}
}
