package model_test

import (
	"go/ast"
	"testing"

	"github.com/modelgen/modelgen/model"
	"sigs.k8s.io/controller-tools/pkg/loader"
)

// bodies counts the function declarations of a package's syntax and the
// statements in their bodies.
func bodies(p *loader.Package) (funcs, stmts int) {
	for _, f := range p.Syntax {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				funcs++
				if fd.Body != nil {
					stmts += len(fd.Body.List)
				}
			}
		}
	}
	return funcs, stmts
}

// TestLibrarySyntaxHasNoBodies: a package of GOROOT the load's check
// reaches is parsed with its declarations and without its statements (no
// check reads them), and is still type-checked; the user's package keeps
// its function bodies; a package the check does not reach (net/http, which
// only an interface's method names, under ObjectOnly) is not parsed.
func TestLibrarySyntaxHasNoBodies(t *testing.T) {
	m, err := model.Load(model.Config{Patterns: []string{"./testdata/objectonly"}, ObjectOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if m.Diags.HasErrors() {
		t.Fatal(m.Diags)
	}
	root := m.Loaded[0]
	if _, stmts := bodies(root); stmts == 0 {
		t.Error("the user's package lost its function bodies")
	}
	u := find(root, "net/url", map[*loader.Package]bool{})
	if u == nil || u.Syntax == nil || u.Types == nil || !u.Types.Complete() {
		t.Fatalf("net/url is not parsed and checked: %+v", u)
	}
	if funcs, stmts := bodies(u); funcs == 0 || stmts != 0 {
		t.Errorf("net/url: %d functions with %d statements, want functions without statements", funcs, stmts)
	}
	if h := find(root, "net/http", map[*loader.Package]bool{}); h == nil || h.Syntax != nil {
		t.Errorf("net/http, which the check does not reach, was parsed")
	}
}
