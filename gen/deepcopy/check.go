package deepcopy

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/modelgen/modelgen/internal/gosyntax"
	"github.com/modelgen/modelgen/model"
)

// controller-tools' generator calls DeepCopyInto (or DeepCopy) on every
// struct field that a plain assignment would not copy, trusting that the
// field's type has the method. When it does not (time.Time, a struct of
// another package without deepcopy, a type of this package that the
// package's markers leave out), the generated file does not compile, and
// the only error would point into a file the run did not write. copyable
// finds those fields first and reports each at its declaration, saying
// what to do.

// copiedTypes reads the names of the types a generated deepcopy file
// gives a DeepCopyInto method.
func copiedTypes(f *ast.File) map[string]bool {
	out := map[string]bool{}
	for _, d := range f.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv != nil && fn.Name.Name == "DeepCopyInto" {
			out[receiverName(fn)] = true
		}
	}
	return out
}

// uncopyable reports the fields of the generated types whose copy calls a
// method their type will not have.
// declared caches, by directory, the types of other packages that declare
// the methods (copyCheck.declared), for every package of a run.
func uncopyable(pkg *loader.Package, generated map[string]bool, declared *methodCache) model.Diagnostics {
	var diags model.Diagnostics
	if pkg == nil || pkg.Types == nil {
		return nil
	}
	c := &copyCheck{pkg: pkg, generated: generated, methods: declared}
	for name := range generated {
		obj, ok := pkg.Types.Scope().Lookup(name).(*types.TypeName)
		if !ok {
			continue
		}
		if named, ok := obj.Type().(*types.Named); ok && named.TypeParams().Len() > 0 {
			ps := pkg.Fset.Position(obj.Pos())
			diags.Errorf(model.Pos{File: ps.Filename, Line: ps.Line, Col: ps.Column}, "deepcopy: the generic type %s cannot get generated deepcopy methods: controller-tools copies only types without type parameters (its copy of %s would not compile); "+
				"mark it +kubebuilder:object:generate=false and write its DeepCopyInto by hand, or use a type without type parameters", name, name)
			continue
		}
		st, ok := obj.Type().Underlying().(*types.Struct)
		if !ok {
			continue
		}
		for field := range st.Fields() {
			if msg := c.visit(field.Type(), map[types.Type]bool{}); msg != "" {
				ps := pkg.Fset.Position(field.Pos())
				diags.Errorf(model.Pos{File: ps.Filename, Line: ps.Line, Col: ps.Column}, "deepcopy: field %s.%s: %s", name, field.Name(), msg)
			}
		}
	}
	return diags
}

type copyCheck struct {
	pkg       *loader.Package
	generated map[string]bool
	methods   *methodCache
}

// methodCache holds copyCheck.declared's answers, by the package's
// directory, for the packages of one run, which are checked side by side.
type methodCache struct {
	mu    sync.Mutex
	byDir map[string]map[string]bool
}

// visit follows a field's type as controller-tools' generator does and
// says what is wrong with the first struct it would call a missing method
// on ("" when nothing is).
func (c *copyCheck) visit(t types.Type, seen map[types.Type]bool) string {
	t = types.Unalias(t)
	if seen[t] {
		return ""
	}
	seen[t] = true
	if named, ok := t.(*types.Named); ok {
		return c.visitNamed(named, seen)
	}
	switch u := t.(type) {
	case *types.Pointer:
		return c.visit(u.Elem(), seen)
	case *types.Slice:
		return c.visit(u.Elem(), seen)
	case *types.Array:
		return c.visit(u.Elem(), seen)
	case *types.Map:
		return c.visit(u.Elem(), seen)
	case *types.Interface:
		return c.interfaceField(t)
	case *types.Struct:
		for field := range u.Fields() {
			if msg := c.visit(field.Type(), seen); msg != "" {
				return msg
			}
		}
	}
	return ""
}

func (c *copyCheck) visitNamed(named *types.Named, seen map[types.Type]bool) string {
	obj := named.Obj()
	local := obj.Pkg() == c.pkg.Types
	switch {
	case local && c.generated[obj.Name()]:
		return "" // checked as a generated type of its own
	case c.hasMethods(named):
		return ""
	case fineToShallowCopy(named):
		return ""
	}
	if _, ok := named.Underlying().(*types.Interface); ok {
		if m, _, _ := types.LookupFieldOrMethod(named, false, obj.Pkg(), "DeepCopy"); m != nil {
			return "" // controller-tools copies it with its own DeepCopy
		}
		return c.interfaceField(named)
	}
	if _, isStruct := named.Underlying().(*types.Struct); !isStruct {
		// a named slice, map or pointer is copied element by element
		return c.visit(named.Underlying(), seen)
	}
	if local {
		return fmt.Sprintf("the type %s gets no deepcopy methods, so its copy does not compile: "+
			"controller-gen's rule generates them for every type of a package marked +kubebuilder:object:generate=true "+
			"(a comment above the package clause), and elsewhere only for types marked +kubebuilder:object:root=true "+
			"or +kubebuilder:object:generate=true; mark the package (or %s) with +kubebuilder:object:generate=true", obj.Name(), obj.Name())
	}
	name := obj.Pkg().Name() + "." + obj.Name()
	if obj.Pkg().Path() == "time" && obj.Name() == "Time" {
		return "time.Time has no DeepCopyInto method, so the generated deepcopy does not compile; " +
			"use metav1.Time (k8s.io/apimachinery/pkg/apis/meta/v1), which Kubernetes APIs use for times and which can be deep-copied"
	}
	return fmt.Sprintf("%s (%s) has no DeepCopyInto method, so the generated deepcopy does not compile; "+
		"use a type that has one, or generate deepcopy for %s's package (+kubebuilder:object:generate=true there)", name, obj.Pkg().Path(), obj.Name())
}

// interfaceField says why a field of interface type t fails: controller-
// tools' generator copies an interface by assignment, so the copy and the
// original would share what it holds (a change through one shows in the
// other); controller-gen refuses it.
func (c *copyCheck) interfaceField(t types.Type) string {
	return fmt.Sprintf("the interface type %s cannot be deep-copied: a copy would share the value it holds with the original, "+
		"and controller-gen refuses it; use a concrete type, or apiextensionsv1.JSON or runtime.RawExtension for arbitrary JSON",
		types.TypeString(t, types.RelativeTo(c.pkg.Types)))
}

// hasMethods reports a DeepCopyInto or DeepCopy method on the type or its
// pointer. In this package, go/types knows the methods, less those of a
// stale generated file (the loader leaves zz_generated files out, as
// controller-gen does, and the run replaces them). In other packages the
// generated files are left out too, so their methods are looked up in the
// package's source files, build-ignored ones included.
func (c *copyCheck) hasMethods(named *types.Named) bool {
	if named.Obj().Pkg() != c.pkg.Types {
		return c.declared(named.Obj().Pkg().Path())[named.Obj().Name()]
	}
	for _, name := range []string{"DeepCopyInto", "DeepCopy"} {
		obj, _, _ := types.LookupFieldOrMethod(types.NewPointer(named), false, named.Obj().Pkg(), name)
		if fn, ok := obj.(*types.Func); ok && !strings.HasPrefix(filepath.Base(c.pkg.Fset.Position(fn.Pos()).Filename), "zz_generated.") {
			return true
		}
	}
	return false
}

// declared returns the types of a package with a DeepCopyInto or DeepCopy
// method declared in any of its Go files.
func (c *copyCheck) declared(path string) map[string]bool {
	dep := findImport(c.pkg, path, map[*loader.Package]bool{})
	if dep == nil || len(dep.GoFiles) == 0 {
		return nil
	}
	dir := filepath.Dir(dep.GoFiles[0])
	c.methods.mu.Lock()
	defer c.methods.mu.Unlock()
	if got, ok := c.methods.byDir[dir]; ok {
		return got
	}
	out := map[string]bool{}
	c.methods.byDir[dir] = out
	names, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	fset := token.NewFileSet()
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			continue
		}
		// the methods' declarations; their bodies are not read
		f, err := parser.ParseFile(fset, name, gosyntax.BlankBodies(src), parser.SkipObjectResolution)
		if err != nil {
			continue
		}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv != nil && (fn.Name.Name == "DeepCopyInto" || fn.Name.Name == "DeepCopy") {
				out[receiverName(fn)] = true
			}
		}
	}
	return out
}

// findImport finds a package among the (transitive) imports of pkg.
func findImport(pkg *loader.Package, path string, seen map[*loader.Package]bool) *loader.Package {
	if seen[pkg] {
		return nil
	}
	seen[pkg] = true
	if pkg.PkgPath == path {
		return pkg
	}
	for _, imp := range pkg.Imports() {
		if found := findImport(imp, path, seen); found != nil {
			return found
		}
	}
	return nil
}

// fineToShallowCopy is controller-tools' rule: a plain assignment copies
// basic types and structs of such.
func fineToShallowCopy(t types.Type) bool {
	switch u := types.Unalias(t).(type) {
	case *types.Basic:
		return u.Kind() != types.Invalid && u.Kind() != types.UnsafePointer
	case *types.Named:
		return fineToShallowCopy(u.Underlying())
	case *types.Struct:
		for field := range u.Fields() {
			if !fineToShallowCopy(field.Type()) {
				return false
			}
		}
		return true
	}
	return false
}
