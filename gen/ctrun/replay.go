package ctrun

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"
	"sigs.k8s.io/controller-tools/pkg/genall"
	"sigs.k8s.io/controller-tools/pkg/loader"
	"sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/model"
)

// The generators of the rbac and webhook markers read nothing of a root
// package but its package-level markers (markers.PackageMarkers): the
// role and the webhook configuration of a module are made of every root's
// markers, in go list's order. A root's part (gen.Replayer) is then the
// text of those markers; an incremental run hands the generator, for each
// replayed root, a package of one file that holds that text alone, and
// the generator cannot tell it from the package it stands for: Markers
// records a part only when the stand-in's markers parse to values deeply
// equal to the package's own.

// MarkerPart is one root package's part of a module file made by a
// controller-tools generator from package-level markers.
type MarkerPart struct {
	// File is the package's first Go file (a backend reads its directory:
	// the module, rolePaths), Module its module's path.
	File   string `json:"file"`
	Module string `json:"module,omitempty"`
	// Markers are the package-level markers the generator defines, as
	// written (+name:args), by name, each name's in the package's order.
	Markers []string `json:"markers,omitempty"`
}

// rawMarker is a marker as written: a definition whose output it is
// parses nothing (markers.Definition.Parse hands it the marker's parts).
// It holds a text that splits into the same parts, so the real definition
// parses it as it parsed the one written.
type rawMarker string

func (r *rawMarker) ParseMarker(name, anonymous, fields string) error {
	if fields == "" && name == anonymous {
		*r = rawMarker("+" + anonymous)
	} else {
		*r = rawMarker("+" + anonymous + "=" + fields)
	}
	return nil
}

// Parts returns each root's MarkerPart for generator g, JSON-encoded, by
// import path; ok is false when a root's markers cannot be replayed
// exactly (or the roots could not be read), so that the run is recorded
// whole.
func Parts(roots []*loader.Package, g genall.Generator) (map[string][]byte, bool) {
	reg, raw := &markers.Registry{}, &markers.Registry{}
	if g.RegisterMarkers(reg) != nil {
		return nil, false
	}
	// the same names and targets: comments are taken for the same markers
	for _, def := range reg.AllDefinitions() {
		if raw.Define(def.Name, def.Target, rawMarker("")) != nil {
			return nil, false
		}
	}
	real, texts := &markers.Collector{Registry: reg}, &markers.Collector{Registry: raw}
	out := map[string][]byte{}
	for _, root := range roots {
		if root.Package == nil || len(root.GoFiles) == 0 || root.Syntax == nil {
			return nil, false
		}
		want, err := markers.PackageMarkers(real, root)
		if err != nil {
			return nil, false
		}
		found, err := markers.PackageMarkers(texts, root)
		if err != nil {
			return nil, false
		}
		p := MarkerPart{File: root.GoFiles[0]}
		if root.Module != nil {
			p.Module = root.Module.Path
		}
		for _, name := range slices.Sorted(func(yield func(string) bool) {
			for n := range found {
				if !yield(n) {
					return
				}
			}
		}) {
			for _, v := range found[name] {
				t := string(v.(rawMarker))
				if strings.ContainsAny(t, "\r\n") {
					return nil, false
				}
				p.Markers = append(p.Markers, t)
			}
		}
		stand, ok := standIn(root.PkgPath, p)
		if !ok {
			return nil, false
		}
		got, err := markers.PackageMarkers(&markers.Collector{Registry: reg}, stand)
		if err != nil || !sameMarkers(got, want) {
			return nil, false
		}
		data, err := json.Marshal(p)
		if err != nil {
			return nil, false
		}
		out[root.PkgPath] = data
	}
	return out, true
}

// sameMarkers compares two packages' marker values, names without a
// value left out.
func sameMarkers(a, b markers.MarkerValues) bool {
	for _, vs := range []markers.MarkerValues{a, b} {
		for n, v := range vs {
			if len(v) == 0 {
				delete(vs, n)
			}
		}
	}
	return reflect.DeepEqual(a, b)
}

// standIn is the package a replayed root's part stands for: one file
// (named as the package's first, in its directory) holding its markers
// below the package clause, in its module.
func standIn(path string, p MarkerPart) (*loader.Package, bool) {
	var src strings.Builder
	src.WriteString("package replayed\n")
	if len(p.Markers) > 0 {
		src.WriteString("\n// " + strings.Join(p.Markers, "\n// ") + "\n")
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, p.File, src.String(), parser.ParseComments)
	if err != nil || p.File == "" {
		return nil, false
	}
	pkg := &packages.Package{ID: path, Name: "replayed", PkgPath: path, GoFiles: []string{p.File}, CompiledGoFiles: []string{p.File}, Syntax: []*ast.File{f}, Fset: fset}
	if p.Module != "" {
		pkg.Module = &packages.Module{Path: p.Module}
	}
	return &loader.Package{Package: pkg}, true
}

// Roots are the root packages a job of a Replayer backend named name
// runs on: the model's, and in an incremental run a stand-in for each
// replayed root (its recorded MarkerPart), in go list's order. ok is false
// when a part cannot be read.
func Roots(c *gen.Context, name string) ([]*loader.Package, bool) {
	parts := c.Replayed(name)
	if len(parts) == 0 {
		return c.Model.Loaded, true
	}
	roots := slices.Clone(c.Model.Loaded)
	for _, part := range parts {
		var p MarkerPart
		if json.Unmarshal(part.Data, &p) != nil {
			return nil, false
		}
		stand, ok := standIn(part.Path, p)
		if !ok {
			return nil, false
		}
		roots = append(roots, stand)
	}
	return gen.RootOrder(c, roots, func(p *loader.Package) string { return p.PkgPath }), true
}

// ByRoots groups root packages by the root directory of their module, in
// order of the directories (ByModule of any roots).
func ByRoots(roots []*loader.Package) ([]string, map[string][]*loader.Package) {
	return ByModule(&model.Model{Loaded: roots})
}
