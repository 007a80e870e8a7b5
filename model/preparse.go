package model

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/modelgen/modelgen/internal/gosyntax"
	"sigs.k8s.io/controller-tools/pkg/loader"
)

// The loader's syntax of a library package. controller-tools' loader parses
// every package its type check reaches with function bodies and object
// resolution, and keeps the trees for the whole run; on the drop-in's
// object line that parse is two fifths of the process's CPU, and at the
// peak of a 1000-kind run the dependencies' statements are a fifth of the
// heap. Nothing reads them: the loader checks declarations only
// (IgnoreFuncBodies), its walk for the packages to check reads the
// top-level type declarations, and the markers, the schemas and the
// generated code read declarations, their comments and the types. So
// before the loader's check runs, preparse gives each package of GOROOT and
// the module cache that the check will reach a syntax tree parsed with its
// function bodies blanked (gosyntax.BlankBodies: offsets and lines stay
// where they are, comments outside the bodies too) and without object
// resolution. The user's packages keep the loader's own parse, bodies and
// all: the type check of what a run writes reads them. A file that does
// not parse is left to the loader, which reports it as before.

// preparse parses the library packages the check reaches from the roots
// (through its filter, as loader.TypeChecker walks them) before it runs.
func preparse(roots []*loader.Package, filters []loader.NodeFilter, fset *token.FileSet) {
	interesting := func(n ast.Node) bool {
		for _, f := range filters {
			if f(n) {
				return true
			}
		}
		return len(filters) == 0
	}
	var (
		mu   sync.Mutex
		seen = map[*loader.Package]bool{}
		wg   sync.WaitGroup
		cpus = make(chan struct{}, runtime.GOMAXPROCS(0))
	)
	var visit func(p *loader.Package)
	visit = func(p *loader.Package) {
		mu.Lock()
		done := seen[p]
		seen[p] = true
		mu.Unlock()
		if done {
			return
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			cpus <- struct{}{}
			if p.Syntax == nil {
				if libraryPackage(p) {
					parseDeclarations(p, fset)
				} else {
					p.NeedSyntax() // as the loader's check would
				}
			}
			<-cpus
			if p.Syntax == nil {
				return // the loader parses it again and reports why
			}
			for _, d := range referenced(p, interesting) {
				visit(d)
			}
		}()
	}
	for _, r := range roots {
		visit(r)
	}
	wg.Wait()
}

// libraryPackage reports a package of GOROOT or the module cache.
func libraryPackage(p *loader.Package) bool {
	if len(p.CompiledGoFiles) == 0 {
		return false
	}
	dir := filepath.Dir(p.CompiledGoFiles[0])
	for _, lib := range libraryRoots() {
		if lib != "" && strings.HasPrefix(dir, lib+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// parseDeclarations sets a package's syntax to its files parsed with their
// function bodies blanked, with comments, without object resolution; it
// leaves it unset when a file cannot be read or does not parse.
func parseDeclarations(p *loader.Package, fset *token.FileSet) {
	files := make([]*ast.File, 0, len(p.CompiledGoFiles))
	for _, path := range p.CompiledGoFiles {
		src, err := os.ReadFile(path)
		if err != nil {
			return
		}
		f, err := parser.ParseFile(fset, path, gosyntax.BlankBodies(src), parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return
		}
		files = append(files, f)
	}
	p.Syntax = files
}

// referenced are the packages the loader's check follows from p: those
// its top-level type declarations name (through the filter), and its dot
// imports; nil where the loader would stop (an import it cannot map).
func referenced(p *loader.Package, interesting loader.NodeFilter) []*loader.Package {
	p.Lock()
	imports := p.Imports()
	p.Unlock()
	byFile := map[*ast.File]map[string]*loader.Package{}
	out := map[*loader.Package]bool{}
	for _, f := range p.Syntax {
		names := map[string]*loader.Package{}
		for _, spec := range f.Imports {
			path, err := strconv.Unquote(spec.Path.Value)
			imp := imports[path]
			if err != nil || imp == nil {
				return nil
			}
			switch {
			case spec.Name == nil:
				names[imp.Name] = imp
			case spec.Name.Name == ".":
				out[imp] = true
			default:
				names[spec.Name.Name] = imp
			}
		}
		byFile[f] = names
	}
	loader.EachType(p, func(f *ast.File, _ *ast.GenDecl, spec *ast.TypeSpec) {
		ast.Walk(refVisitor{names: byFile[f], out: out, interesting: interesting}, spec.Type)
	})
	refs := make([]*loader.Package, 0, len(out))
	for d := range out {
		refs = append(refs, d)
	}
	return refs
}

// refVisitor collects the packages a type expression names, as the
// loader's reference collector does.
type refVisitor struct {
	names       map[string]*loader.Package
	out         map[*loader.Package]bool
	interesting loader.NodeFilter
}

func (v refVisitor) Visit(node ast.Node) ast.Visitor {
	if node == nil || !v.interesting(node) {
		return nil
	}
	switch n := node.(type) {
	case *ast.Ident:
		return nil
	case *ast.SelectorExpr:
		if x, ok := n.X.(*ast.Ident); ok {
			if d := v.names[x.Name]; d != nil {
				v.out[d] = true
			}
			return nil
		}
	}
	return v
}
