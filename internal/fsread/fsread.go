// Package fsread is how modelgen reads files it did not write this run
// (settings, headers, output already on disk, contracts given to the gate):
// regular files only, checked on the file that is opened, and never more
// than a bound. A device such as /dev/zero, a FIFO (which would block a
// plain open forever), a socket or a directory, through a symbolic link or
// not, is refused before a byte is read.
package fsread

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"sync"
	"syscall"
)

// NotRegularError is a path that is not a regular file.
type NotRegularError struct {
	// Kind says what it is instead: "a directory", "a named pipe (FIFO)"...
	Kind string
}

func (e *NotRegularError) Error() string { return "is " + e.Kind + ", not a regular file" }

// TooLargeError is a file or stream longer than the bound it was read with.
type TooLargeError struct{ Max int64 }

func (e *TooLargeError) Error() string {
	return "is larger than the " + FormatSize(e.Max) + " limit"
}

// Open opens a regular file for reading. The path is checked, the file is
// opened without blocking (a FIFO would otherwise block the open) and the
// opened descriptor is checked again: it is what the caller reads.
func Open(name string) (*os.File, os.FileInfo, error) {
	info, err := os.Stat(name)
	if err != nil {
		return nil, nil, err
	}
	if err := Regular(info); err != nil {
		return nil, nil, err
	}
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	opened, err := f.Stat()
	if err == nil {
		err = Regular(opened)
	}
	if err == nil && !os.SameFile(info, opened) {
		err = errors.New("the file changed while it was opened")
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, opened, nil
}

// File reads a regular file of at most maxBytes bytes.
func File(name string, maxBytes int64) ([]byte, error) {
	f, info, err := Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info.Size() > maxBytes {
		return nil, &TooLargeError{Max: maxBytes}
	}
	return AtMost(f, maxBytes)
}

// Head reads the first maxBytes bytes of a regular file, or all of it when
// it is shorter: enough to look for a header.
func Head(name string, maxBytes int64) ([]byte, error) {
	f, _, err := Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, maxBytes))
}

// Regular refuses anything but a regular file, saying what it is.
func Regular(info os.FileInfo) error {
	mode := info.Mode()
	if mode.IsRegular() {
		return nil
	}
	kind := "not a regular file"
	switch {
	case mode.IsDir():
		kind = "a directory"
	case mode&os.ModeCharDevice != 0:
		kind = "a character device"
	case mode&os.ModeDevice != 0:
		kind = "a device"
	case mode&os.ModeNamedPipe != 0:
		kind = "a named pipe (FIFO)"
	case mode&os.ModeSocket != 0:
		kind = "a socket"
	}
	return &NotRegularError{Kind: kind}
}

// AtMost reads r to its end, refusing it once it passes maxBytes: a file
// that grows after its size was checked, or a stream, is cut off there.
func AtMost(r io.Reader, maxBytes int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxBytes+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > maxBytes {
		return nil, &TooLargeError{Max: maxBytes}
	}
	return data, nil
}

// FormatSize writes a byte count with the largest binary unit that divides
// it (16MiB, 1000B).
func FormatSize(n int64) string {
	for _, u := range []struct {
		suffix string
		factor int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n%u.factor == 0 {
			return strconv.FormatInt(n/u.factor, 10) + u.suffix
		}
	}
	return strconv.FormatInt(n, 10) + "B"
}

// Describe is an error of this package as a short phrase for a message,
// without the path an *fs.PathError repeats.
func Describe(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Sprint(pe.Err)
	}
	return err.Error()
}

// Equal reports whether the regular file at name holds exactly data,
// reading no more than len(data)+1 bytes of it. A missing file is not
// equal; a path that is not a regular file is an error. The file is
// compared a buffer at a time, so a run that finds its outputs unchanged
// does not hold a second copy of each.
func Equal(name string, data []byte) (bool, error) {
	f, info, err := Open(name)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer f.Close()
	if info.Size() != int64(len(data)) {
		return false, nil
	}
	buf := compareBuffers.Get().(*[32 << 10]byte)
	defer compareBuffers.Put(buf)
	r := io.LimitReader(f, int64(len(data))+1)
	rest, same := data, true
	for {
		n, err := r.Read(buf[:])
		if same && (n > len(rest) || !bytes.Equal(buf[:n], rest[:n])) {
			same = false
		}
		if same {
			rest = rest[n:]
		}
		if err == io.EOF {
			return same && len(rest) == 0, nil
		}
		if err != nil {
			return false, err
		}
	}
}

// compareBuffers are Equal's read buffers.
var compareBuffers = sync.Pool{New: func() any { return new([32 << 10]byte) }}
