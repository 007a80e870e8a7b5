//go:build unix

package gate

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/modelgen/modelgen/internal/testkit"
)

func TestLimitNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "zero.yaml")); err != nil {
		t.Fatal(err)
	}
	refused(t, Options{Dir: dir, Revision: "zero.yaml"}, []string{"zero.yaml: is a character device; the gate reads regular files only"})

	// A FIFO without a writer would block a plain open forever.
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo.yaml"), 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	refused(t, Options{Dir: dir, Revision: "fifo.yaml"}, []string{"fifo.yaml: is a named pipe (FIFO)"})
	refused(t, Options{Dir: dir, Revision: "."}, []string{"is a directory"})

	// A symlink to a regular file is read as that file.
	testkit.WriteFile(t, filepath.Join(dir, "real.yaml"), minimal("3.0.3", "{type: object}"))
	if err := os.Symlink("real.yaml", filepath.Join(dir, "link.yaml")); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(t.Context(), Options{Base: "real.yaml", Revision: "link.yaml", Dir: dir}); err != nil {
		t.Errorf("symlink to a regular file: %v", err)
	}
}
