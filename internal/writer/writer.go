// Package writer is the one place modelgen touches the disk: it compares
// generated files with what is there, writes each changed file atomically
// (temporary file + rename), and in check mode writes nothing and reports
// what is stale.
package writer

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/internal/fsread"
)

// Result says what happened to the files of a run.
type Result struct {
	Written   []string
	Unchanged []string
	Stale     []string // check mode: files that differ or are missing
	// Orphans (check mode) and Removed: files an earlier run generated
	// from these packages that this run no longer generates.
	Orphans []string
	Removed []string
	// Emptied are orphaned Go files that go generate may still open: they
	// are excluded from the build now and removed by the next run.
	Emptied []string
	// TakenOver are the files that differ from what the run generates and
	// are on disk as modelgen did not write them (see writtenByOtherTool).
	TakenOver []TakenOver
}

// TakenOver is a file modelgen did not write that the run rewrites: Tool
// names the generator that did as the file does ("controller-gen",
// "deepcopy-gen"), "" when the file names none (controller-gen's rbac and
// webhook output, a hand-written file).
type TakenOver struct {
	Path, Tool string
}

// Plan sorts files and rejects two backends writing one path.
func Plan(files []gen.File) ([]gen.File, error) {
	sorted := append([]gen.File(nil), files...)
	for i := range sorted {
		// "dir/./a" and "dir/a" are one file
		sorted[i].Path = filepath.Clean(sorted[i].Path)
	}
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Path < sorted[j].Path })
	for i := 1; i < len(sorted); i++ {
		if sorted[i].Path == sorted[i-1].Path {
			return nil, fmt.Errorf("%s: two generators produce this file", sorted[i].Path)
		}
	}
	return sorted, nil
}

// Write writes the files that changed. With check set it writes nothing and
// lists the files that would change. A run is all-or-nothing as far as the
// file system allows: every changed file is first written to a temporary
// file beside its target, and only when all of them exist are they renamed
// into place.
func Write(files []gen.File, check bool) (Result, error) {
	var r Result
	sorted, err := Plan(files)
	if err != nil {
		return r, err
	}
	var changed []gen.File
	for _, f := range sorted {
		same, err := compare(f)
		if err != nil {
			return r, err
		}
		if same {
			r.Unchanged = append(r.Unchanged, f.Path)
			continue
		}
		if tool, other := writtenByOtherTool(f.Path); other {
			r.TakenOver = append(r.TakenOver, TakenOver{Path: f.Path, Tool: tool})
		}
		changed = append(changed, f)
	}
	if check {
		for _, f := range changed {
			r.Stale = append(r.Stale, f.Path)
		}
		return r, nil
	}
	st := &stage{}
	for _, f := range changed {
		if err := st.add(f); err != nil {
			st.abort(0)
			return r, err
		}
	}
	for i, f := range changed {
		if err := os.Rename(st.temps[i], f.Path); err != nil {
			st.abort(i)
			return r, err
		}
		r.Written = append(r.Written, f.Path)
	}
	return r, nil
}

// compare reports whether the file on disk is what the run generates. A
// destination that is not a regular file (a directory, a FIFO, a device)
// is an error before anything is written: the rename into it would fail
// halfway through a run, or replace what is not modelgen's.
func compare(f gen.File) (bool, error) {
	if fi, err := os.Lstat(f.Path); err == nil && fi.Mode()&os.ModeSymlink == 0 && !fi.Mode().IsRegular() {
		return false, fmt.Errorf("%s: %v; move it away, modelgen writes a generated file there", f.Path, fsread.Regular(fi))
	}
	// a symbolic link to what is not a regular file (or an unreadable
	// file) differs: the rename replaces the link, never what it points to
	same, _ := fsread.Equal(f.Path, f.Data)
	return same, nil
}

// stage holds the temporary files of a run and the directories it created.
type stage struct {
	temps []string
	dirs  []string
}

// abort removes the temporary files from index i on, and the directories
// the run created if they are still empty.
func (s *stage) abort(i int) {
	for _, t := range s.temps[i:] {
		os.Remove(t)
	}
	// deepest first, so that a parent is empty when its turn comes
	sort.Slice(s.dirs, func(a, b int) bool { return len(s.dirs[a]) > len(s.dirs[b]) })
	for _, d := range s.dirs {
		if fi, err := os.Lstat(d); err == nil && fi.IsDir() {
			os.Remove(d)
		}
	}
}

func (s *stage) add(f gen.File) error {
	dir := filepath.Dir(f.Path)
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); !os.IsNotExist(err) || filepath.Dir(d) == d {
			break
		}
		s.dirs = append(s.dirs, d)
	}
	tmp, err := writeTemp(dir, f)
	if err != nil {
		return err
	}
	s.temps = append(s.temps, tmp)
	return nil
}

func writeTemp(dir string, f gen.File) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(f.Path)+".tmp-*")
	if err != nil {
		return "", err
	}
	_, err = tmp.Write(f.Data)
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	return tmp.Name(), nil
}
