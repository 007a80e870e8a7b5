package writer_test

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/internal/writer"

	"github.com/modelgen/modelgen/internal/testkit"
)

func TestWriteCreatesAndReplacesAtomically(t *testing.T) {
	dir := t.TempDir()
	keep := filepath.Join(dir, "keep.yaml")
	replace := filepath.Join(dir, "replace.yaml")
	testkit.WriteFile(t, keep, "same\n")
	testkit.WriteFile(t, replace, "old\n")
	old := time.Now().Add(-time.Hour).Truncate(time.Second)
	if err := os.Chtimes(keep, old, old); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(replace)

	files := []gen.File{
		{Path: filepath.Join(dir, "nested", "deeper", "new.go"), Data: []byte("package x\n")},
		{Path: replace, Data: []byte("new\n")},
		{Path: keep, Data: []byte("same\n")},
	}
	res, err := writer.Write(files, false)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"keep.yaml": "same\n", "replace.yaml": "new\n", "nested/deeper/new.go": "package x\n"}
	if got := testkit.Snapshot(t, dir); !maps.Equal(got, want) {
		t.Errorf("tree after Write = %v, want %v (no temporary files may remain)", got, want)
	}
	if !slices.Equal(res.Written, []string{files[0].Path, replace}) || !slices.Equal(res.Unchanged, []string{keep}) || len(res.Stale) != 0 {
		t.Errorf("result = %+v", res)
	}
	if st, _ := os.Stat(keep); !st.ModTime().Equal(old) {
		t.Errorf("an unchanged file was rewritten (mtime %v, want %v)", st.ModTime(), old)
	}
	// a replaced file is a new file renamed over the old one, never the old
	// one truncated and rewritten in place (a reader sees old or new, not half)
	after, _ := os.Stat(replace)
	if os.SameFile(before, after) {
		t.Error("replace.yaml was rewritten in place, not replaced by rename")
	}
	if after.Mode().Perm() != 0o644 {
		t.Errorf("replaced file mode %v, want 0644", after.Mode().Perm())
	}
}

func TestWriteRejectsTwoFilesWithOnePath(t *testing.T) {
	dir := t.TempDir()
	for _, second := range []string{"a.yaml", "./a.yaml", "sub/../a.yaml"} {
		files := []gen.File{
			{Path: filepath.Join(dir, "b.yaml"), Data: []byte("b")},
			{Path: filepath.Join(dir, "a.yaml"), Data: []byte("one")},
			{Path: dir + string(filepath.Separator) + second, Data: []byte("two")},
		}
		_, err := writer.Write(files, false)
		if err == nil || !strings.Contains(err.Error(), "two generators produce this file") {
			t.Errorf("%s twice: err = %v, want a two-generators error", second, err)
		}
		if got := testkit.Snapshot(t, dir); len(got) != 0 {
			t.Errorf("%s twice: files were written: %v", second, got)
		}
	}
}

func TestCheckWritesNothing(t *testing.T) {
	dir := t.TempDir()
	current := filepath.Join(dir, "current.yaml")
	stale := filepath.Join(dir, "stale.yaml")
	missing := filepath.Join(dir, "sub", "missing.yaml")
	testkit.WriteFile(t, current, "ok\n")
	testkit.WriteFile(t, stale, "old\n")
	before := testkit.Snapshot(t, dir)

	res, err := writer.Write([]gen.File{
		{Path: stale, Data: []byte("new\n")},
		{Path: current, Data: []byte("ok\n")},
		{Path: missing, Data: []byte("x\n")},
	}, true)
	if err != nil {
		t.Fatal(err)
	}
	if got := testkit.Snapshot(t, dir); !maps.Equal(got, before) {
		t.Errorf("check mode changed the tree: %v, was %v", got, before)
	}
	if _, err := os.Stat(filepath.Dir(missing)); !os.IsNotExist(err) {
		t.Errorf("check mode created directory %s", filepath.Dir(missing))
	}
	if !slices.Equal(res.Stale, []string{stale, missing}) || !slices.Equal(res.Unchanged, []string{current}) || len(res.Written) != 0 {
		t.Errorf("result = %+v", res)
	}
}

// TestWriteAllOrNothing: when one file cannot be written, none of the
// run's files may have changed, and no directory it created may remain.
func TestWriteAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	first := filepath.Join(dir, "a", "first.yaml")
	testkit.WriteFile(t, first, "old\n")
	// "z" is a file, so z/last.yaml cannot be created; the files sorted
	// before it are staged (and new/deeper created) by then
	testkit.WriteFile(t, filepath.Join(dir, "z"), "not a directory\n")
	before := testkit.Snapshot(t, dir)

	_, err := writer.Write([]gen.File{
		{Path: first, Data: []byte("new\n")},
		{Path: filepath.Join(dir, "new", "deeper", "second.yaml"), Data: []byte("x\n")},
		{Path: filepath.Join(dir, "z", "last.yaml"), Data: []byte("y\n")},
	}, false)
	if err == nil {
		t.Fatal("Write succeeded although z/last.yaml cannot be created")
	}
	if got := testkit.Snapshot(t, dir); !maps.Equal(got, before) {
		t.Errorf("a failed Write changed the tree:\n got %v\nwant %v", got, before)
	}
	if _, err := os.Stat(filepath.Join(dir, "new")); !os.IsNotExist(err) {
		t.Errorf("a failed Write left the directory it created: %v", err)
	}
}

// TestWriteChecksEveryDestinationFirst: a destination that cannot be
// replaced by a rename (a directory where a generated file goes) fails the
// run before the first rename, so the files sorted before it keep their old
// content and no temporary file is left; --check says the same.
func TestWriteChecksEveryDestinationFirst(t *testing.T) {
	dir := t.TempDir()
	first := filepath.Join(dir, "a.yaml")
	last := filepath.Join(dir, "z.yaml")
	blocked := filepath.Join(dir, "m", "zz_generated.deepcopy.go")
	testkit.WriteFile(t, first, "old\n")
	testkit.WriteFile(t, last, "old\n")
	testkit.WriteFile(t, filepath.Join(blocked, "inside.txt"), "a directory in the way\n")
	before := testkit.Snapshot(t, dir)
	files := []gen.File{
		{Path: first, Data: []byte("new\n")},
		{Path: blocked, Data: []byte("package m\n")},
		{Path: last, Data: []byte("new\n")},
	}
	for _, check := range []bool{false, true} {
		_, err := writer.Write(files, check)
		if err == nil || !strings.Contains(err.Error(), blocked+": is a directory, not a regular file; move it away") {
			t.Errorf("check=%v: err = %v, want the directory in the way named", check, err)
		}
		if got := testkit.Snapshot(t, dir); !maps.Equal(got, before) {
			t.Errorf("check=%v: a failed Write changed the tree:\n got %v\nwant %v", check, got, before)
		}
	}
}

// TestWriteNamesTheToolItTakesOverFrom: a file that differs from the run's
// and is on disk as another generator wrote it is named with that
// generator (the Go generated-code line's tool below a licence, the
// controller-gen annotation in YAML); a file with no generator's mark
// (controller-gen's role, a hand-written file) is taken over with no tool
// named; modelgen's own files, empty files and files the run leaves as they
// are are not.
func TestWriteNamesTheToolItTakesOverFrom(t *testing.T) {
	dir := t.TempDir()
	licence := "/*\n" + strings.Repeat("Licensed under the Apache License.\n", 14) + "*/\n\n"
	onDisk := map[string]string{
		"deepcopygen/zz_generated.deepcopy.go":   "//go:build !ignore_autogenerated\n// +build !ignore_autogenerated\n\n" + licence + "// Code generated by deepcopy-gen. DO NOT EDIT.\n\npackage v1\n",
		"controllergen/zz_generated.deepcopy.go": "//go:build !ignore_autogenerated\n\n// Code generated by controller-gen. DO NOT EDIT.\n\npackage v1\n",
		"crd.yaml":                               "---\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  annotations:\n    controller-gen.kubebuilder.io/version: v0.23.0\n",
		"modelgen/zz_generated.go":               "// Code generated by modelgen. DO NOT EDIT.\n\npackage v1\n",
		"hand/zz_generated.go":                   "package v1\n\n// Code generated by hand, once.\n",
		"same/zz_generated.go":                   "// Code generated by deepcopy-gen. DO NOT EDIT.\n\npackage v1\n",
		"role.yaml":                              "---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: manager-role\n",
		"empty/zz_generated.go":                  "",
	}
	var files []gen.File
	for rel, data := range onDisk {
		p := filepath.Join(dir, rel)
		testkit.WriteFile(t, p, data)
		out := "// Code generated by modelgen. DO NOT EDIT.\n\npackage v1\n\nvar x int\n"
		if rel == "same/zz_generated.go" {
			out = data
		}
		files = append(files, gen.File{Path: p, Data: []byte(out), Owner: "example.com/v1"})
	}
	res, err := writer.Write(files, false)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range res.TakenOver {
		rel, _ := filepath.Rel(dir, f.Path)
		got[rel] = f.Tool
	}
	want := map[string]string{
		"deepcopygen/zz_generated.deepcopy.go":   "deepcopy-gen",
		"controllergen/zz_generated.deepcopy.go": "controller-gen",
		"crd.yaml":                               "controller-gen",
		"hand/zz_generated.go":                   "",
		"role.yaml":                              "",
	}
	if !maps.Equal(got, want) {
		t.Errorf("taken over: %v, want %v", got, want)
	}
}
