// Package writer is the one place modelgen touches the disk: it compares
// generated files with what is there, writes each changed file atomically
// (temporary file + rename), and in check mode writes nothing and reports
// what is stale.
package writer

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/modelgen/modelgen/gen"
)

// Result says what happened to the files of a run.
type Result struct {
	Written   []string
	Unchanged []string
	Stale     []string // check mode: files that differ or are missing
}

// Plan sorts files and rejects two backends writing one path.
func Plan(files []gen.File) ([]gen.File, error) {
	sorted := append([]gen.File(nil), files...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Path < sorted[j].Path })
	for i := 1; i < len(sorted); i++ {
		if sorted[i].Path == sorted[i-1].Path {
			return nil, fmt.Errorf("%s: two generators produce this file", sorted[i].Path)
		}
	}
	return sorted, nil
}

// Write writes the files that changed. With check set it writes nothing and
// lists the files that would change.
func Write(files []gen.File, check bool) (Result, error) {
	var r Result
	sorted, err := Plan(files)
	if err != nil {
		return r, err
	}
	var changed []gen.File
	for _, f := range sorted {
		old, err := os.ReadFile(f.Path)
		if err == nil && bytes.Equal(old, f.Data) {
			r.Unchanged = append(r.Unchanged, f.Path)
			continue
		}
		changed = append(changed, f)
	}
	if check {
		for _, f := range changed {
			r.Stale = append(r.Stale, f.Path)
		}
		return r, nil
	}
	for _, f := range changed {
		if err := writeAtomic(f.Path, f.Data); err != nil {
			return r, err
		}
		r.Written = append(r.Written, f.Path)
	}
	return r, nil
}

func writeAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
