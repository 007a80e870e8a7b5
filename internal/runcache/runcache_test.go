package runcache

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRecordsRoundTripAndRefuseWhatTheyCannotTrust: a saved record loads
// back; anything else under its name (not JSON, another format, a
// relative path, a record without a tool, a package
// owning a file the record does not list) is no record.
func TestRecordsRoundTripAndRefuseWhatTheyCannotTrust(t *testing.T) {
	c := Cache{dir: t.TempDir()}
	r := &Record{Tool: "go:a/b", Inputs: "digest", Files: []File{{Path: "/x/openapi.yaml", Sum: Sum([]byte("x"))}}}
	if err := c.Save("k", r); err != nil {
		t.Fatal(err)
	}
	if got := c.Load("k"); got == nil || got.Tool != "go:a/b" || len(got.Files) != 1 || got.Files[0].Path != "/x/openapi.yaml" {
		t.Fatalf("loaded %+v", got)
	}
	for name, text := range map[string]string{
		"not json":       "{",
		"another format": `{"Format":1,"Tool":"t","Inputs":"i"}`,
		"no tool":        `{"Format":2,"Inputs":"i"}`,
		"relative path":  `{"Format":2,"Tool":"t","Inputs":"i","Files":[{"Path":"a.yaml","Sum":"s"}]}`,
		"a package's file is none of the record's": `{"Format":2,"Tool":"t","Inputs":"i","Files":[{"Path":"/a.yaml","Sum":"s"}],"Packages":[{"Path":"p","Files":[1]}]}`,
	} {
		write(t, c.path("k"), text)
		if got := c.Load("k"); got != nil {
			t.Errorf("%s: loaded %+v", name, got)
		}
	}
	if (Cache{}).Load("k") != nil || (Cache{}).Save("k", r) != nil {
		t.Error("the zero Cache is not off")
	}
}

// TestSaveRemovesOldRecords: a record no run used for a month goes, and so
// does a temporary file a killed run left; another program's old files in
// the same directory (MODELGEN_CACHE may name any directory) stay.
func TestSaveRemovesOldRecords(t *testing.T) {
	c := Cache{dir: t.TempDir()}
	old, oldTmp := c.path("old"), filepath.Join(c.dir, "."+recordPrefix+"old.tmp-123")
	theirs := []string{"old.json", "settings.json", "." + "x.tmp-1", recordPrefix + "notes.txt"}
	then := time.Now().Add(-keep - time.Hour)
	for _, name := range append([]string{filepath.Base(old), filepath.Base(oldTmp)}, theirs...) {
		p := filepath.Join(c.dir, name)
		write(t, p, "{}")
		if err := os.Chtimes(p, then, then); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Save("new", &Record{Tool: "t", Inputs: "i"}); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{old, oldTmp} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s, unused for a month, is still there: %v", filepath.Base(p), err)
		}
	}
	for _, name := range theirs {
		if _, err := os.Stat(filepath.Join(c.dir, name)); err != nil {
			t.Errorf("the clean-up removed %s, a file the cache did not write: %v", name, err)
		}
	}
	if c.Load("new") == nil {
		t.Error("the record just saved is gone")
	}
}

// TestHash: a file's content decides its sum, except below an immutable
// root, where its size does (but not directly in the root: GOROOT's
// VERSION); a missing file has a sum of its own.
func TestHash(t *testing.T) {
	dir := t.TempDir()
	src, mod, version := filepath.Join(dir, "src", "a.go"), filepath.Join(dir, "mod", "m@v1", "b.go"), filepath.Join(dir, "mod", "VERSION")
	write(t, src, "package a")
	write(t, mod, "package b")
	write(t, version, "go1.26")
	immutable := []string{filepath.Join(dir, "mod")}
	s := Hash([]string{src, mod, version, filepath.Join(dir, "none")}, immutable)
	if got := s.Files[mod]; got != "mod:9" {
		t.Errorf("a module cache file: %q, want its size", got)
	}
	if got := s.Files[filepath.Join(dir, "none")]; got != "-" {
		t.Errorf("a missing file: %q", got)
	}
	if !strings.HasPrefix(s.Files[src], "sha256:") || !strings.HasPrefix(s.Files[version], "sha256:") {
		t.Errorf("files outside the immutable roots are not hashed: %v", s.Files)
	}
	before := s.Digest(nil)
	write(t, src, "package c") // same size
	if Hash([]string{src, mod, version, filepath.Join(dir, "none")}, immutable).Digest(nil) == before {
		t.Error("a change of content left the digest as it was")
	}
	if s.Digest(map[string]bool{src: true}) == before {
		t.Error("a path left out still counts")
	}
	if !s.Recent(time.Now(), nil) || s.Recent(time.Now().Add(time.Minute), nil) {
		t.Errorf("Recent: %v", s.Modified)
	}
	if s.Recent(time.Now(), map[string]bool{src: true, version: true}) {
		t.Errorf("Recent counts a file left out: %v", s.Modified)
	}
}

// TestToolIDIsTheBuildID: the running binary is named by the build ID the
// Go linker wrote (on Linux, its ELF note).
func TestToolIDIsTheBuildID(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the ELF note")
	}
	id, err := ToolID()
	if err != nil || !strings.HasPrefix(id, "go:") || !strings.Contains(id, "/") {
		t.Fatalf("ToolID() = %q, %v", id, err)
	}
	if again, _ := ToolID(); again != id {
		t.Errorf("ToolID changed within a process: %q, %q", id, again)
	}
}
