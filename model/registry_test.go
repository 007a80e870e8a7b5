package model_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/go-playground/validator/v10"

	"github.com/modelgen/modelgen/model"
)

// bakedIn reads validator's baked_in.go from the module cache (the version
// this module builds against) and returns the keys of bakedInValidators and
// the entries of bakedInAliases.
func bakedIn(t *testing.T) (keywords []string, aliases map[string]string) {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/go-playground/validator/v10").Output()
	if err != nil {
		t.Fatalf("go list validator: %v", err)
	}
	dir := strings.TrimSpace(string(out))
	fset := token.NewFileSet()
	names, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	var pkg []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatalf("parse validator: %v", err)
		}
		pkg = append(pkg, f)
	}
	consts := stringConsts(pkg)
	lit := func(e ast.Expr) string {
		switch x := e.(type) {
		case *ast.BasicLit:
			s, err := strconv.Unquote(x.Value)
			if err == nil {
				return s
			}
		case *ast.Ident:
			if s, ok := consts[x.Name]; ok {
				return s
			}
		}
		t.Fatalf("%s: cannot read map key %T", fset.Position(e.Pos()), e)
		return ""
	}
	aliases = map[string]string{}
	for _, kv := range mapEntries(pkg, "bakedInValidators") {
		keywords = append(keywords, lit(kv.Key))
	}
	for _, kv := range mapEntries(pkg, "bakedInAliases") {
		aliases[lit(kv.Key)] = lit(kv.Value)
	}
	if len(keywords) < 100 || len(aliases) == 0 {
		t.Fatalf("read %d keywords and %d aliases from %s/baked_in.go: has its layout changed?", len(keywords), len(aliases), dir)
	}
	return keywords, aliases
}

// mapEntries finds `name = map[...]...{...}` among the package's variables.
func mapEntries(pkg []*ast.File, name string) []*ast.KeyValueExpr {
	var out []*ast.KeyValueExpr
	for _, f := range pkg {
		ast.Inspect(f, func(n ast.Node) bool {
			vs, ok := n.(*ast.ValueSpec)
			if !ok {
				return true
			}
			for i, id := range vs.Names {
				if id.Name != name || i >= len(vs.Values) {
					continue
				}
				if cl, ok := vs.Values[i].(*ast.CompositeLit); ok {
					for _, e := range cl.Elts {
						if kv, ok := e.(*ast.KeyValueExpr); ok {
							out = append(out, kv)
						}
					}
				}
			}
			return true
		})
	}
	return out
}

func stringConsts(pkg []*ast.File) map[string]string {
	out := map[string]string{}
	for _, f := range pkg {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, s := range gd.Specs {
				vs := s.(*ast.ValueSpec)
				for i, id := range vs.Names {
					if i < len(vs.Values) {
						if bl, ok := vs.Values[i].(*ast.BasicLit); ok && bl.Kind == token.STRING {
							out[id.Name], _ = strconv.Unquote(bl.Value)
						}
					}
				}
			}
		}
	}
	return out
}

func TestRegistryCoversValidator(t *testing.T) {
	keywords, aliases := bakedIn(t)
	for _, name := range keywords {
		if _, ok := model.Lookup(name); !ok {
			t.Errorf("validator keyword %q is missing from the registry (model/keywords_*.go)", name)
		}
	}
	for name, want := range aliases {
		got, ok := model.Aliases[name]
		switch {
		case !ok:
			t.Errorf("validator alias %q = %q is missing from model.Aliases", name, want)
		case got != want:
			t.Errorf("model.Aliases[%q] = %q, validator says %q", name, got, want)
		}
	}
	for name := range model.Aliases {
		if _, ok := aliases[name]; !ok {
			t.Errorf("model.Aliases has %q, which validator does not define", name)
		}
	}
}

// TestRegistryWellFormed audits the registry the way oasdiff audits its
// rule table: sorted unique names and documentation for the README (that
// every schema and CEL keyword lowers to a schema is schema's
// TestEveryKeywordLowers).
func TestRegistryWellFormed(t *testing.T) {
	ks := model.Keywords()
	for i, k := range ks {
		if i > 0 && ks[i-1].Name() >= k.Name() {
			t.Errorf("Keywords() not sorted and unique at %q, %q", ks[i-1].Name(), k.Name())
		}
		if got, ok := model.Lookup(k.Name()); !ok || got.Name() != k.Name() {
			t.Errorf("Lookup(%q) does not find the registered keyword", k.Name())
		}
		if strings.TrimSpace(k.Doc()) == "" || strings.TrimSpace(k.Schema()) == "" {
			t.Errorf("%q: Doc and Schema must both say something (they fill the README table)", k.Name())
		}
	}
	for name, expansion := range model.Aliases {
		for _, n := range strings.Split(expansion, "|") {
			if _, ok := model.Lookup(n); !ok {
				t.Errorf("alias %q expands to %q, which is not registered", name, n)
			}
		}
	}
}

// TestRegistryKnownToValidator: every registered keyword is one validator
// knows, so the generator never accepts a tag the runtime would reject.
func TestRegistryKnownToValidator(t *testing.T) {
	v := validator.New()
	contexts := map[string]string{
		"keys":    "dive,keys,endkeys",
		"endkeys": "dive,keys,endkeys",
		"dive":    "dive",
	}
	for _, k := range model.Keywords() {
		tag, ok := contexts[k.Name()]
		if !ok {
			tag = k.Name()
		}
		if msg := parsePanic(v, tag); msg != "" {
			t.Errorf("validator rejects registered keyword %q (tag %q): %s", k.Name(), tag, msg)
		}
	}
}

// parsePanic returns validator's complaint when it cannot parse the tag;
// panics while validating the sample value (a missing parameter, the wrong
// kind) are not about the keyword's existence and are ignored.
func parsePanic(v *validator.Validate, tag string) (msg string) {
	defer func() {
		if r := recover(); r != nil && strings.Contains(string(debug.Stack()), "parseFieldTagsRecursive") {
			msg = fmt.Sprint(r)
		}
	}()
	_ = v.Var([]string{"x"}, tag)
	return ""
}
