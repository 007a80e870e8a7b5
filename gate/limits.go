package gate

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/modelgen/modelgen/internal/fsread"
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

// readRegularFile reads a regular file of at most maxBytes (see
// internal/fsread: anything else is refused before a byte is read).
func readRegularFile(name string, maxBytes int64) ([]byte, error) {
	data, err := fsread.File(name, maxBytes)
	return data, gateError(err, maxBytes)
}

// gateError words fsread's refusals the gate's way: a limit names its flag.
func gateError(err error, maxBytes int64) error {
	var notRegular *fsread.NotRegularError
	var large *fsread.TooLargeError
	switch {
	case errors.As(err, &notRegular):
		return fmt.Errorf("is %s; the gate reads regular files only", notRegular.Kind)
	case errors.As(err, &large):
		return tooLarge(maxBytes)
	}
	return err
}

// readAtMost reads r to its end, refusing it once it passes maxBytes: a
// git blob is cut off there.
func readAtMost(r io.Reader, maxBytes int64) ([]byte, error) {
	data, err := fsread.AtMost(r, maxBytes)
	return data, gateError(err, maxBytes)
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
func formatSize(n int64) string { return fsread.FormatSize(n) }

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
