package model

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
)

// Pos is a source position. Files are absolute; String prints them relative
// to the working directory when that is shorter.
type Pos struct {
	File      string
	Line, Col int
}

func (p Pos) String() string {
	switch {
	case p.File == "":
		return "-"
	case p.Line == 0:
		// a whole file or directory: no made-up line and column
		return relPath(p.File)
	}
	return fmt.Sprintf("%s:%d:%d", relPath(p.File), p.Line, p.Col)
}

// IsValid reports whether the position names a file.
func (p Pos) IsValid() bool { return p.File != "" }

func relPath(file string) string {
	if wd, err := filepath.Abs("."); err == nil {
		if rel, err := filepath.Rel(wd, file); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return file
}

// Severity of a diagnostic.
type Severity int

const (
	Error Severity = iota
	Warning
)

// Diagnostic is one positioned message.
type Diagnostic struct {
	Pos      Pos
	Severity Severity
	Msg      string
}

func (d Diagnostic) String() string {
	if d.Severity == Warning {
		return d.Pos.String() + ": warning: " + d.Msg
	}
	return d.Pos.String() + ": " + d.Msg
}

// Diagnostics collects the messages of a run.
type Diagnostics []Diagnostic

// Errorf adds an error.
func (ds *Diagnostics) Errorf(pos Pos, format string, args ...any) {
	*ds = append(*ds, Diagnostic{pos, Error, fmt.Sprintf(format, args...)})
}

// Warnf adds a warning.
func (ds *Diagnostics) Warnf(pos Pos, format string, args ...any) {
	*ds = append(*ds, Diagnostic{pos, Warning, fmt.Sprintf(format, args...)})
}

// Add appends other diagnostics.
func (ds *Diagnostics) Add(other Diagnostics) { *ds = append(*ds, other...) }

// HasErrors reports whether any diagnostic is an error.
func (ds Diagnostics) HasErrors() bool { return ds.Count(Error) > 0 }

// Count counts the diagnostics of one severity.
func (ds Diagnostics) Count(s Severity) int {
	n := 0
	for _, d := range ds {
		if d.Severity == s {
			n++
		}
	}
	return n
}

// Sorted returns the diagnostics ordered by file, line, column and message,
// without duplicates.
func (ds Diagnostics) Sorted() Diagnostics {
	out := append(Diagnostics(nil), ds...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Pos, out[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		return out[i].Msg < out[j].Msg
	})
	uniq := out[:0]
	for i, d := range out {
		if i == 0 || d != out[i-1] {
			uniq = append(uniq, d)
		}
	}
	return uniq
}

// Error lets a set of error diagnostics travel as an error.
func (ds Diagnostics) Error() string {
	var b strings.Builder
	for i, d := range ds.Sorted() {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(d.String())
	}
	return b.String()
}
