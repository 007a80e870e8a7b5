//go:build unix

package fsread_test

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/modelgen/modelgen/internal/fsread"
)

// TestOnlyRegularFilesBounded: a device, a FIFO (without blocking) and a
// directory are refused before a byte is read, through a link or not; a
// file over the bound is refused; Equal reads no more than it compares.
func TestOnlyRegularFilesBounded(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	zero := filepath.Join(dir, "zero")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Skip(err)
	}
	for path, kind := range map[string]string{fifo: "a named pipe (FIFO)", zero: "a character device", dir: "a directory"} {
		for name, read := range map[string]func() error{
			"File":  func() error { _, err := fsread.File(path, 10); return err },
			"Head":  func() error { _, err := fsread.Head(path, 10); return err },
			"Equal": func() error { _, err := fsread.Equal(path, []byte("x")); return err },
		} {
			var nr *fsread.NotRegularError
			if err := read(); !errors.As(err, &nr) || nr.Kind != kind {
				t.Errorf("%s(%s): %v, want it refused as %s", name, path, err, kind)
			}
		}
	}
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, make([]byte, 11), 0o644); err != nil {
		t.Fatal(err)
	}
	var tl *fsread.TooLargeError
	if _, err := fsread.File(big, 10); !errors.As(err, &tl) || err.Error() != "is larger than the 10B limit" {
		t.Errorf("File over the bound: %v", err)
	}
	if data, err := fsread.File(big, 11); err != nil || len(data) != 11 {
		t.Errorf("File at the bound: %d bytes, %v", len(data), err)
	}
	if same, err := fsread.Equal(big, make([]byte, 11)); !same || err != nil {
		t.Errorf("Equal of the same bytes: %v %v", same, err)
	}
	if same, err := fsread.Equal(filepath.Join(dir, "missing"), nil); same || err != nil {
		t.Errorf("Equal of a missing file: %v %v", same, err)
	}
}
