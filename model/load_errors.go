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

// brokenDeps names the first error of each dependency of t's package that
// does not parse or that go list refused (a syntax error in another file of the
// package a field's type comes from leaves the type invalid, and the
// field's error alone would not say where), as a suffix for the field's
// message; "" when no dependency has one.
func (b *builder) brokenDeps(t *Type) string {
	if t.Pkg == nil || t.Pkg.Loaded == nil {
		return ""
	}
	var found []string
	seen := map[*loader.Package]bool{}
	var visit func(p *loader.Package)
	visit = func(p *loader.Package) {
		if seen[p] || len(found) >= 3 {
			return
		}
		seen[p] = true
		for _, path := range slices.Sorted(maps.Keys(p.Imports())) {
			dep := p.Imports()[path]
			for _, e := range dep.Errors {
				// (type errors of a dependency the loader checked only in
				// part are not evidence: controller-tools checks no more
				// of it than declarations need)
				if e.Kind == packages.ParseError || e.Kind == packages.ListError {
					found = append(found, relPath(e.Pos)+": "+firstLine(e.Msg))
					break
				}
			}
			visit(dep)
		}
	}
	visit(t.Pkg.Loaded)
	if len(found) == 0 {
		return ""
	}
	return "; a package it needs does not build: " + strings.Join(found, "; ")
}
