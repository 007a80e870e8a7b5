package fsread_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/modelgen/modelgen/internal/fsread"
)

// TestEqualComparesEveryByte: Equal reads a file a buffer at a time; a
// difference in the first, a middle or the last byte of a file longer than
// the buffer makes it unequal, and only the same bytes are equal.
func TestEqualComparesEveryByte(t *testing.T) {
	dir := t.TempDir()
	data := bytes.Repeat([]byte("0123456789abcdef"), 10_000) // 160 kB: five buffers
	path := filepath.Join(dir, "f")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if same, err := fsread.Equal(path, data); !same || err != nil {
		t.Errorf("Equal of the same bytes: %v %v", same, err)
	}
	for _, at := range []int{0, 32 << 10, len(data)/2 + 7, len(data) - 1} {
		other := bytes.Clone(data)
		other[at] ^= 1
		if same, err := fsread.Equal(path, other); same || err != nil {
			t.Errorf("Equal with byte %d changed: %v %v", at, same, err)
		}
	}
	if same, err := fsread.Equal(path, data[:len(data)-1]); same || err != nil {
		t.Errorf("Equal of a shorter slice: %v %v", same, err)
	}
}
