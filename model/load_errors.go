package model

import (
	"go/token"
	"maps"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"
	"sigs.k8s.io/controller-tools/pkg/loader"
)

// importErrors reports the imports of a root that the go tool could not
// provide (a module missing from go.mod or go.sum, a package that does not
// exist), at the import in the root's source.
func importErrors(root *loader.Package) Diagnostics {
	var ds Diagnostics
	for _, path := range slices.Sorted(maps.Keys(root.Imports())) {
		dep := root.Imports()[path]
		for _, e := range dep.Errors {
			if e.Kind != packages.ListError || strings.HasPrefix(e.Msg, "#") {
				continue
			}
			ds.Errorf(importPos(root, path), "import %q: %s", path, firstLine(e.Msg))
		}
	}
	return ds
}

// importPos is where a root imports a path (its package clause when no
// import spec names it).
func importPos(root *loader.Package, path string) Pos {
	for _, f := range root.Syntax {
		for _, spec := range f.Imports {
			if spec.Path != nil && strings.Trim(spec.Path.Value, "\"`") == path {
				ps := root.Fset.Position(spec.Pos())
				return Pos{File: ps.Filename, Line: ps.Line, Col: ps.Column}
			}
		}
	}
	if pos := clausePos(root); pos.IsValid() {
		return pos
	}
	return Pos{File: root.PkgPath}
}

// FileSet positions every file Load parsed (nil for a model not loaded),
// for a later check of the same syntax trees (internal/typecheck).
func (m *Model) FileSet() *token.FileSet { return m.fset }

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.ReplaceAll(s, "\n\t", " "), "\n")
	return line
}

// Pos is where an error about the whole package is reported: the package
// clause of its first file (its directory when no file was parsed).
func (p *Package) Pos() Pos {
	if p.Loaded != nil {
		if pos := clausePos(p.Loaded); pos.IsValid() {
			return pos
		}
	}
	return Pos{File: p.Dir}
}

// clausePos is the package clause of a loaded package's first file.
func clausePos(p *loader.Package) Pos {
	if p.Fset == nil {
		return Pos{}
	}
	for _, f := range p.Syntax {
		if f != nil {
			ps := p.Fset.Position(f.Package)
			return Pos{File: ps.Filename, Line: ps.Line, Col: ps.Column}
		}
	}
	return Pos{}
}
