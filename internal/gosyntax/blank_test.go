package gosyntax

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"
)

// bodies has what a body blanker can trip on: result types with braces,
// type parameters with constraints, receivers of generic types, a function
// without a body, braces in strings, runes and comments, closures and
// local types in bodies, a package variable's function literal, and a line
// directive inside a body.
const bodies = `package p

import (
	"fmt"
	"strings"
)

type T[K comparable] struct{ m map[K]int }

func (t *T[K]) Get(k K) (v int, ok bool) {
	v, ok = t.m[k]
	if v > 0 { return v, ok }
	return
}

func Pair() struct{ A, B int } { return struct{ A, B int }{1, 2} }

func Stringer() interface{ String() string } {
	type local struct{ s string }
	const c = iota
	_ = local{"}"}
	f := func() { _ = '}'; _ = "{{" }
	f()
	/* } */ // }
	return nil
}

func Constrained[T interface{ ~int | ~string }](x T) T {
//line generated.go:10
	return x
}

func asm(x int) int

var Hook = func(s string) string { return strings.ToUpper(s) }

var Table = map[string]func() int{"one": func() int { return 1 }}

type After struct{ Name string }

func (After) Print() { fmt.Println("after") }
`

// TestBlankBodiesKeepsTheDeclarations: with the bodies blanked, a file
// parses, every function declaration's body is empty, a package
// variable's function literal keeps its body, every declaration stays at
// its offset, the line directive inside a body still applies, and the
// package's API (each object's type) is that of the file as written.
func TestBlankBodiesKeepsTheDeclarations(t *testing.T) {
	src := []byte(bodies)
	out := BlankBodies(src)
	if string(src) != bodies {
		t.Fatal("the source was changed in place")
	}
	if len(out) != len(src) || strings.Count(string(out), "\n") != strings.Count(bodies, "\n") {
		t.Fatalf("offsets or lines moved:\n%s", out)
	}
	fset := token.NewFileSet()
	blanked, err := parser.ParseFile(fset, "p.go", out, parser.SkipObjectResolution)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	written, err := parser.ParseFile(fset, "p.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range blanked.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			if fd.Body != nil && len(fd.Body.List) != 0 {
				t.Errorf("%s: body not blanked", fd.Name.Name)
			}
			if (fd.Body == nil) != (fd.Name.Name == "asm") {
				t.Errorf("%s: body = %v", fd.Name.Name, fd.Body)
			}
		}
		at := func(p token.Pos) token.Position { return fset.Position(p) }
		if w := written.Decls[i]; at(d.Pos()) != at(w.Pos()) || at(d.End()) != at(w.End()) {
			t.Errorf("declaration %d moved: %v-%v, was %v-%v", i, at(d.Pos()), at(d.End()), at(w.Pos()), at(w.End()))
		}
	}
	lits := 0
	ast.Inspect(blanked, func(n ast.Node) bool {
		if fl, ok := n.(*ast.FuncLit); ok && len(fl.Body.List) == 1 {
			lits++
		}
		return true
	})
	if lits != 2 {
		t.Errorf("want the package variables' two function literals with their bodies, got %d", lits)
	}
	if !strings.Contains(string(out), "\n//line generated.go:10\n") {
		t.Errorf("the line directive inside a body is gone:\n%s", out)
	}
	api := func(f *ast.File) map[string]string {
		conf := types.Config{Importer: importer.Default(), IgnoreFuncBodies: true, Error: func(error) {}}
		pkg, _ := conf.Check("p", fset, []*ast.File{f}, nil)
		out := map[string]string{}
		for _, name := range pkg.Scope().Names() {
			obj := pkg.Scope().Lookup(name)
			out[name] = obj.Type().String()
			if named, ok := obj.Type().(*types.Named); ok {
				for m := range named.Methods() {
					out[name+"."+m.Name()] = m.Type().String()
				}
			}
		}
		return out
	}
	want, got := api(written), api(blanked)
	if len(want) != len(got) {
		t.Errorf("API: want %v, got %v", want, got)
	}
	for name, typ := range want {
		if got[name] != typ {
			t.Errorf("%s: want %s, got %s", name, typ, got[name])
		}
	}
}
