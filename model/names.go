package model

import (
	"go/types"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
	"sigs.k8s.io/controller-tools/pkg/loader"
)

// Declared finds a package-level declaration of name in the package as
// Load type-checked it, leaving out the files named zz_generated.* (what
// modelgen or controller-gen generated; the run replaces them, so what they
// declare never clashes with what it generates). It is the one check a
// backend makes before it generates a package-level identifier; the
// type-check of the generated code (Compile) still catches any clash it
// lets through.
func (p *Package) Declared(name string) (Pos, bool) {
	if p.Loaded == nil || p.Loaded.Types == nil {
		return Pos{}, false
	}
	obj := p.Loaded.Types.Scope().Lookup(name)
	if obj == nil {
		return Pos{}, false
	}
	ps := p.Loaded.Fset.Position(obj.Pos())
	if generatedFile(ps.Filename) {
		return Pos{}, false
	}
	return Pos{File: ps.Filename, Line: ps.Line, Col: ps.Column}, true
}

// generatedFile reports a file modelgen (or controller-gen) writes: what it
// declares is replaced by the run, so it never clashes.
func generatedFile(path string) bool {
	return strings.HasPrefix(filepath.Base(path), "zz_generated.")
}

// methodsOf lists the methods of *T (declared or promoted), leaving out
// those declared in generated files.
func methodsOf(msets *typeutil.MethodSetCache, p *loader.Package, obj *types.TypeName) []string {
	var out []string
	ms := msets.MethodSet(types.NewPointer(obj.Type()))
	for i := 0; i < ms.Len(); i++ {
		fn := ms.At(i).Obj()
		if generatedFile(p.Fset.Position(fn.Pos()).Filename) {
			continue
		}
		out = append(out, fn.Name())
	}
	sort.Strings(out)
	return out
}
