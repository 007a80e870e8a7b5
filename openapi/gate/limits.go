package gate

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// Limits bound what the gate reads, so that no document, however hostile,
// makes it read outside the given files, hold more than a bounded amount of
// memory, or run for long before it answers. Each can be raised with a flag.
type Limits struct {
	// MaxBytes is the largest document read, in bytes (--max-size).
	MaxBytes int64
	// MaxAliases is the most YAML aliases (*name) a document may use
	// (--max-yaml-aliases).
	MaxAliases int
	// MaxAliasNodes is the most YAML nodes the aliases may add once
	// expanded, counted before anything is expanded (--max-yaml-alias-nodes).
	MaxAliasNodes int
	// MaxDepth is the longest chain of nested schemas, through $refs
	// (--max-schema-depth): oasdiff's work grows with the square of it.
	MaxDepth int
	// MaxSchemaPairs is the most pairs of schemas one comparison may visit
	// (--max-schema-pairs): it bounds the work, where the others bound the
	// size.
	MaxSchemaPairs int
}

// Default limits: far above what modelgen writes (no aliases at all, about
// 20 KiB per resource), and low enough that any pair of documents they let
// through is judged within about 5 s of CPU and 1 GiB of memory (see
// BENCHMARKS.md: two 16 MB contracts take 5.4 to 5.8 s of CPU and at most
// 770 MB).
const (
	DefaultMaxBytes      = 16 << 20
	DefaultMaxAliases    = 1000
	DefaultMaxAliasNodes = 100_000
	DefaultMaxDepth      = 100
	// DefaultMaxSchemaPairs lets a comparison visit two million schema
	// pairs: a 16 MB generated contract is 1.1 million once its allOf are
	// merged (about 5 s of CPU), an anyOf at the limit about 6 s; the CRD
	// gate needs well under a second for it.
	DefaultMaxSchemaPairs = 2_000_000
)

// DefaultLimits returns the limits used when Options.Limits is zero.
func DefaultLimits() Limits {
	return Limits{MaxBytes: DefaultMaxBytes, MaxAliases: DefaultMaxAliases, MaxAliasNodes: DefaultMaxAliasNodes, MaxDepth: DefaultMaxDepth, MaxSchemaPairs: DefaultMaxSchemaPairs}
}

// orDefaults fills the zero fields of l with the defaults.
func (l Limits) orDefaults() Limits {
	d := DefaultLimits()
	if l.MaxBytes <= 0 {
		l.MaxBytes = d.MaxBytes
	}
	if l.MaxAliases <= 0 {
		l.MaxAliases = d.MaxAliases
	}
	if l.MaxAliasNodes <= 0 {
		l.MaxAliasNodes = d.MaxAliasNodes
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = d.MaxDepth
	}
	if l.MaxSchemaPairs <= 0 {
		l.MaxSchemaPairs = d.MaxSchemaPairs
	}
	return l
}

// LimitError is an input refused by one of the Limits; it names the flag
// that raises the limit.
type LimitError struct {
	Msg  string
	Flag string
}

func (e *LimitError) Error() string {
	if e.Flag == "" {
		return e.Msg
	}
	return e.Msg + " (raise the limit with --" + e.Flag + ")"
}

func tooLarge(maxBytes int64) error {
	return &LimitError{Msg: fmt.Sprintf("the document is larger than the %s limit", formatSize(maxBytes)), Flag: "max-size"}
}

// readRegularFile reads a regular file of at most maxBytes. Anything else
// (a device such as /dev/zero, a FIFO, a socket, a directory, through a
// symlink or not) is refused before a byte is read: the file is checked by
// path, opened without blocking (a FIFO would otherwise block the open), and
// checked again on the open descriptor, which is what is read.
func readRegularFile(name string, maxBytes int64) ([]byte, error) {
	info, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if err := regular(info); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	opened, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := regular(opened); err != nil {
		return nil, err
	}
	if !os.SameFile(info, opened) {
		return nil, errors.New("the file changed while it was opened")
	}
	if opened.Size() > maxBytes {
		return nil, tooLarge(maxBytes)
	}
	return readAtMost(f, maxBytes)
}

func regular(info os.FileInfo) error {
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
	return fmt.Errorf("is %s; the gate reads regular files only", kind)
}

// readAtMost reads r to its end, refusing it once it passes maxBytes: a file
// that grows after its size was checked, or a git blob, is cut off there.
func readAtMost(r io.Reader, maxBytes int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxBytes+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > maxBytes {
		return nil, tooLarge(maxBytes)
	}
	return data, nil
}

// parseSize reads a byte count: a plain number, or one with a KiB, MiB or
// GiB suffix ("64MiB").
func parseSize(s string) (int64, error) {
	units := []struct {
		suffix string
		factor int64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"B", 1}}
	num, factor := strings.TrimSpace(s), int64(1)
	for _, u := range units {
		if n, ok := strings.CutSuffix(num, u.suffix); ok {
			num, factor = strings.TrimSpace(n), u.factor
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n <= 0 || n > math.MaxInt64/factor {
		return 0, fmt.Errorf("%q: want a positive size in bytes, such as 16777216 or 16MiB", s)
	}
	return n * factor, nil
}

// formatSize writes a byte count the way parseSize reads it.
func formatSize(n int64) string {
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

// sizeFlag is a flag.Value for a byte count.
type sizeFlag struct{ n *int64 }

func (f sizeFlag) String() string {
	if f.n == nil {
		return ""
	}
	return formatSize(*f.n)
}

func (f sizeFlag) Set(s string) error {
	n, err := parseSize(s)
	if err != nil {
		return err
	}
	*f.n = n
	return nil
}
