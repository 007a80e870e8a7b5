// Package runcache lets a generate run skip the backends when nothing they
// read has moved since the last run that succeeded with the same command
// line in the same directory: the same modelgen binary, the same settings
// and the same content of every file the run read (the packages' sources,
// their dependencies', modelgen.yaml and the header files), and every file
// that run generated still on disk with the bytes it had then. The backends
// then could only produce what is already there, so the run replays that
// run's diagnostics and goes on to the writer with the files on disk (which
// still removes orphans and reports what it found unchanged).
//
// The record is also kept by root package (Record.Packages), so that a run
// after a change in some packages loads, generates and type-checks only
// those and what depends on them, and replays the others' part (gen/all,
// incremental.go).
//
// The cache fails closed: a record that is missing, unreadable, too large,
// of another format or another binary, or that disagrees in any file, is a
// miss, and the run does all its work. A record is written only after a
// run that wrote everything it generated and finished without an error,
// and not when an input was modified so recently that it may have changed
// while the run read it.
//
// MODELGEN_CACHE names the directory (default modelgen/runs in the user's
// cache directory, os.UserCacheDir); MODELGEN_CACHE=off turns it off.
package runcache

import (
	"bytes"
	"crypto/sha256"
	"debug/elf"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/internal/fsread"
	"github.com/modelgen/modelgen/model"
)

// format is the record layout's version; a record of another is a miss.
const format = 3

// Bounds on what the cache reads: a record, and a generated file it
// compares (a larger one is a miss, and the run compares it itself).
const (
	maxRecord = 64 << 20
	maxOutput = 256 << 20
)

// recent is how close to the run an input's modification time may be for
// the run to be recorded: a file written that recently may have changed
// after the run read it, with a modification time the file system cannot
// tell apart (cmd/go keeps no hash of such a file either).
const recent = 2 * time.Second

// keep is how long a record no run has used stays.
const keep = 30 * 24 * time.Hour

// Cache is a directory of records, one per command line and directory.
// The zero Cache is off.
type Cache struct{ dir string }

// Open returns the cache MODELGEN_CACHE names.
func Open() Cache {
	switch v := os.Getenv("MODELGEN_CACHE"); {
	case v == "off":
		return Cache{}
	case v != "":
		return Cache{dir: v}
	}
	dir, err := os.UserCacheDir()
	if err != nil {
		return Cache{}
	}
	return Cache{dir: filepath.Join(dir, "modelgen", "runs")}
}

// Dir is the cache's directory ("" when off).
func (c Cache) Dir() string { return c.dir }

// Key names the record of a command line: its parts (the working
// directory, the arguments that decide the output) in order.
func Key(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		io.WriteString(h, strconv.Quote(p))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// File is one generated file of a recorded run, as it was on disk when
// the run ended.
type File struct {
	Path    string
	Owner   string
	Backend string
	Sum     string
}

// Record is what a successful run leaves for the next.
type Record struct {
	Format int
	// Tool identifies the modelgen binary (ToolID).
	Tool string
	// Inputs is the digest of the sums of the files the run read, its
	// outputs left out (they are compared by Files).
	Inputs string
	// Extra are files the run read beyond the loaded packages (what the
	// type check of the generated code loaded), by path, with their sums.
	Extra map[string]string
	Files []File
	// Diags are the diagnostics the run printed (warnings only).
	Diags model.Diagnostics

	// Packages are the run's root packages, each with its part of the run
	// (its files, diagnostics and declared outputs), so that a run after a
	// change in some packages redoes those and replays the others; nil
	// when the run could not be split by package (a file generated from
	// the whole module by a backend that cannot replay a package's part
	// of it, a diagnostic outside every root): a change then
	// redoes everything.
	Packages []Package
	// Shared is the digest of the sums of the files the run read that are
	// no root package's own (dependencies, go.mod, GOROOT's VERSION), its
	// outputs left out: when it moves, everything is redone.
	Shared string
	// Settings are the setting files the run read (modelgen.yaml, header
	// files), by path, with their sums: when one moves, everything is
	// redone.
	Settings map[string]string
}

// Package is one root package's part of a recorded run.
type Package struct {
	Path   string
	Dir    string
	ModDir string
	// Group is the package's +groupName: the CRD of a group is made from
	// all of its packages, so they are redone together.
	Group string
	// InModel: the package holds selected types (model.Model.Packages).
	InModel bool
	// Imports are the run's other root packages it imports.
	Imports []string
	// Inputs is the digest of the sums of the package's own files (go
	// list's), the run's outputs left out.
	Inputs string
	// Files index the record's Files the package owns.
	Files []int
	// Diags are the diagnostics positioned in the package's directory.
	Diags model.Diagnostics
	// Outputs are the files the backends declare for the package alone
	// (the writer's scope).
	Outputs []gen.Output
	// Types, Fields and Checks count the package's types, their fields
	// and their constraints (the run's summary).
	Types, Fields, Checks int
	// Parts are the package's parts of the files generated from its whole
	// module (gen.Replayer: its +kubebuilder:rbac markers in the role),
	// by backend name: a run that replays the package re-renders those
	// files from them.
	Parts map[string]json.RawMessage `json:",omitempty"`
}

// recordPrefix starts the name of every file the cache writes: its records
// (recordPrefix+key+".json") and their temporary files ("."+recordPrefix+
// key+".tmp-*"). The clean-up removes nothing else, so a directory that
// MODELGEN_CACHE names and other programs also use keeps their files.
const recordPrefix = "modelgen-run-"

func (c Cache) path(key string) string { return filepath.Join(c.dir, recordPrefix+key+".json") }

// ours reports whether the cache wrote a file of this name: a record or the
// temporary file of one.
func ours(name string) bool {
	if rest, ok := strings.CutPrefix(name, recordPrefix); ok {
		return strings.HasSuffix(rest, ".json") && !strings.Contains(rest, "/")
	}
	rest, ok := strings.CutPrefix(name, "."+recordPrefix)
	return ok && strings.Contains(rest, ".tmp-")
}

// Load reads the record of key; nil when there is none or it cannot be
// trusted.
func (c Cache) Load(key string) *Record {
	if c.dir == "" {
		return nil
	}
	data, err := fsread.File(c.path(key), maxRecord)
	if err != nil {
		return nil
	}
	var r Record
	if err := json.Unmarshal(data, &r); err != nil || r.Format != format || r.Tool == "" || r.Inputs == "" {
		return nil
	}
	for _, f := range r.Files {
		if f.Path == "" || !filepath.IsAbs(f.Path) || f.Sum == "" {
			return nil
		}
	}
	for _, p := range r.Packages {
		for _, i := range p.Files {
			if i < 0 || i >= len(r.Files) {
				return nil
			}
		}
	}
	// a record in use stays (see prune)
	now := time.Now()
	os.Chtimes(c.path(key), now, now)
	return &r
}

// Save writes the record of key atomically, and removes records (and
// temporary files of records) no run has used for a month: only files the
// cache wrote, never another program's in the same directory.
func (c Cache) Save(key string, r *Record) error {
	if c.dir == "" {
		return nil
	}
	r.Format = format
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(c.dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(c.dir, "."+recordPrefix+key+".tmp-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), c.path(key))
	}
	if err != nil {
		os.Remove(tmp.Name())
		return err
	}
	c.prune()
	return nil
}

func (c Cache) prune() {
	entries, err := os.ReadDir(c.dir)
	if err != nil {
		return
	}
	cut := time.Now().Add(-keep)
	for _, e := range entries {
		if !ours(e.Name()) {
			continue
		}
		if fi, err := e.Info(); err == nil && fi.Mode().IsRegular() && fi.ModTime().Before(cut) {
			os.Remove(filepath.Join(c.dir, e.Name()))
		}
	}
}

// ToolID identifies the running binary: the Go build ID the linker wrote
// (a hash of the binary's content), else the SHA-256 of the executable.
// Tests replace it.
var ToolID = sync.OnceValues(func() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	if id := elfBuildID(exe); id != "" {
		return "go:" + id, nil
	}
	f, _, err := fsread.Open(exe)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
})

// elfBuildID reads the Go build ID note of an ELF executable ("" when it
// has none, or is not ELF).
func elfBuildID(path string) string {
	f, err := elf.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	s := f.Section(".note.go.buildid")
	if s == nil || s.Size > 4096 {
		return ""
	}
	data, err := s.Data()
	if err != nil || len(data) < 16 {
		return ""
	}
	// an ELF note: name size, description size, type, "Go\x00\x00", the ID
	nameSize := int(f.ByteOrder.Uint32(data[0:]))
	descSize := int(f.ByteOrder.Uint32(data[4:]))
	start := 12 + (nameSize+3)&^3
	if nameSize != 4 || !bytes.Equal(data[12:16], []byte("Go\x00\x00")) || start+descSize > len(data) {
		return ""
	}
	id := string(data[start : start+descSize])
	// an ID of the form action/content; a binary linked with -buildid=
	// has none, and then its content is hashed instead
	if !strings.Contains(id, "/") {
		return ""
	}
	return id
}

// Sums are the files a run read, by path: "sha256:<hex>" of the content,
// "mod:<size>" for a file below an immutable root (the module cache,
// where the path names the module's version; a release's GOROOT, named by
// its VERSION file), "-" for a file that is not there (a modelgen.yaml a
// package does not have). Modified holds the modification times of the
// files hashed by content.
type Sums struct {
	Files    map[string]string
	Modified map[string]time.Time
}

// Hash sums the files at paths; files below one of the immutable roots
// (the module cache, a Go release's GOROOT) are summed by size, those
// directly in a root (GOROOT's VERSION) by content. A file that cannot be read as a
// regular file gets a sum no record holds, so it is a miss.
func Hash(paths []string, immutable []string) Sums {
	s := Sums{Files: make(map[string]string, len(paths)), Modified: map[string]time.Time{}}
	var mu sync.Mutex
	var wg sync.WaitGroup
	work := make(chan string)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range work {
				sum, mod := sumFile(p, immutable)
				mu.Lock()
				s.Files[p] = sum
				if !mod.IsZero() {
					s.Modified[p] = mod
				}
				mu.Unlock()
			}
		}()
	}
	seen := map[string]bool{}
	for _, p := range paths {
		if !seen[p] {
			seen[p] = true
			work <- p
		}
	}
	close(work)
	wg.Wait()
	return s
}

func sumFile(path string, immutable []string) (string, time.Time) {
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return "-", time.Time{}
	}
	if err != nil || !fi.Mode().IsRegular() {
		return "unreadable", time.Time{}
	}
	for _, root := range immutable {
		// a file directly in a root (GOROOT's VERSION) names what is below
		if root != "" && strings.HasPrefix(path, root+string(filepath.Separator)) && filepath.Dir(path) != root {
			return "mod:" + strconv.FormatInt(fi.Size(), 10), time.Time{}
		}
	}
	f, _, err := fsread.Open(path)
	if err != nil {
		return "unreadable", time.Time{}
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "unreadable", time.Time{}
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), fi.ModTime()
}

// Recent reports whether a file hashed by content, not in skip, was
// modified within the cut-off before t (the run's start).
func (s Sums) Recent(t time.Time, skip map[string]bool) bool {
	for p, mod := range s.Modified {
		if !skip[p] && mod.After(t.Add(-recent)) {
			return true
		}
	}
	return false
}

// Digest is the digest of the sums, leaving out the paths in skip.
func (s Sums) Digest(skip map[string]bool) string {
	paths := make([]string, 0, len(s.Files))
	for p := range s.Files {
		if !skip[p] {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	h := sha256.New()
	for _, p := range paths {
		io.WriteString(h, p)
		h.Write([]byte{0})
		io.WriteString(h, s.Files[p])
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Sum is the sum of data as a record holds it.
func Sum(data []byte) string {
	h := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(h[:])
}

// Current reads the generated files of a record from disk when each still
// has the bytes the record holds; ok is false on the first that does not
// (missing, changed, not a regular file, too large).
func (r *Record) Current() (data [][]byte, ok bool) {
	data = make([][]byte, len(r.Files))
	for i := range r.Files {
		if data[i], ok = r.CurrentFile(i); !ok {
			return nil, false
		}
	}
	return data, true
}

// CurrentFile reads the record's i-th generated file from disk when it
// still has the bytes the record holds.
func (r *Record) CurrentFile(i int) ([]byte, bool) {
	b, err := fsread.File(r.Files[i].Path, maxOutput)
	if err != nil || Sum(b) != r.Files[i].Sum {
		return nil, false
	}
	return b, true
}

// ExtraCurrent reports whether the record's extra files still have their sums.
func (r *Record) ExtraCurrent(immutable []string) bool { return Current(r.Extra, immutable) }

// DigestOf is the digest of the sums of the given paths (those hashed),
// leaving out the paths in skip.
func (s Sums) DigestOf(paths []string, skip map[string]bool) string {
	sub := Sums{Files: map[string]string{}}
	for _, p := range paths {
		if sum, ok := s.Files[p]; ok && !skip[p] {
			sub.Files[p] = sum
		}
	}
	return sub.Digest(nil)
}

// Current reports whether every file of sums (a record's Settings or
// Extra) still has its sum.
func Current(sums map[string]string, immutable []string) bool {
	paths := make([]string, 0, len(sums))
	for p := range sums {
		paths = append(paths, p)
	}
	s := Hash(paths, immutable)
	for p, sum := range sums {
		if s.Files[p] != sum {
			return false
		}
	}
	return true
}
