package docgen_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/modelgen/modelgen/internal/testkit"
)

// TestDocsCiteWhatExists: every repository path, test name and Go
// identifier of modelgen's own packages that the docs and READMEs cite in
// backticks exists, so that a renamed test, a moved directory or a removed
// function shows up here rather than in a reader's dead end.
//
// What counts as a citation: a path whose first element is a top-level
// directory of the repository (`gen/rbac`, `hack/test.sh`,
// `model/testdata/diag/unknown`); a test, fuzz target or benchmark name
// (`TestExactShapes`, `FuzzCRDObjects`); and pkg.Name where pkg is one of
// the repository's package names that no dependency shares
// (`model.OptionalStruct`). Placeholders (`<group>`), patterns (`*`,
// `./...`) and paths in a user's project (`config/rbac/role.yaml`) are not
// citations.
func TestDocsCiteWhatExists(t *testing.T) {
	root := testkit.Root(t)
	idx := indexRepository(t, root)
	var problems []string
	for _, doc := range citingDocs(t, root) {
		data, err := os.ReadFile(filepath.Join(root, doc))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range citations(string(data)) {
			if msg := idx.check(root, filepath.Dir(doc), c.text); msg != "" {
				problems = append(problems, doc+":"+strconv.Itoa(c.line)+": `"+c.text+"`: "+msg)
			}
		}
	}
	for _, p := range problems {
		t.Error(p)
	}
}

// TestCitationCheckFindsWhatIsMissing holds the check itself to account:
// names that do not exist are reported, names that do are not.
func TestCitationCheckFindsWhatIsMissing(t *testing.T) {
	root := testkit.Root(t)
	idx := indexRepository(t, root)
	for _, c := range []string{"TestGeneratedCodeMustCompile", "model.FuzzLoad", "gen/rbac/testdata/errors", "hack/nosuch.sh", "gen/crd.Nosuch", "model.Field.Nosuch"} {
		if idx.check(root, ".", c) == "" {
			t.Errorf("%s does not exist, and the check let it through", c)
		}
	}
	for _, c := range []string{"TestDocsCiteWhatExists", "model.OptionalStruct", "gen/rbac", "hack/test.sh", "cmd/internal/cli/cli.go:42", "config/rbac/role.yaml", "metav1.Time", "gen/<backend>", "gen/crd.Verify", "model.Config.Listed", "model.Field.Access"} {
		if msg := idx.check(root, ".", c); msg != "" {
			t.Errorf("%s: %s", c, msg)
		}
	}
}

// citingDocs are the pages whose citations are checked: docs/, the
// top-level Markdown files and the examples' READMEs.
func citingDocs(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	for _, pattern := range []string{"*.md", "docs/*.md", "examples/*/README.md"} {
		m, err := filepath.Glob(filepath.Join(root, pattern))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range m {
			rel, _ := filepath.Rel(root, f)
			out = append(out, rel)
		}
	}
	sort.Strings(out)
	if len(out) < 10 {
		t.Fatalf("only %d pages to check: %v", len(out), out)
	}
	return out
}

type citation struct {
	text string
	line int
}

var (
	fence    = regexp.MustCompile("(?m)^\\s*```")
	backtick = regexp.MustCompile("`([^`\\n]+)`")
)

// citations are the backticked spans of a Markdown page outside fenced
// code blocks, with their lines.
func citations(page string) []citation {
	var out []citation
	inFence := false
	for i, line := range strings.Split(page, "\n") {
		if fence.MatchString(line) {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		for _, m := range backtick.FindAllStringSubmatch(line, -1) {
			out = append(out, citation{text: strings.TrimSpace(m[1]), line: i + 1})
		}
	}
	return out
}

// index is what the repository holds: its top-level directories, the
// names of its test functions, and the top-level identifiers (and
// methods, as Type.Method) of each package name.
type index struct {
	top   map[string]bool
	tests map[string]bool
	decls map[string]map[string]bool // package name -> identifiers
}

// ownPackages are the repository's package names that no dependency's
// package shares, so that pkg.Name in the docs is certainly this
// repository's (schema, openapi, policy, rbac and crd are also Kubernetes'
// or kin-openapi's names, and are left out).
var ownPackages = map[string]bool{
	"model": true, "gen": true, "agree": true, "testkit": true, "writer": true, "runcache": true,
	"typecheck": true, "yamlout": true, "fsread": true, "docgen": true, "vtag": true, "statetag": true,
	"accesstag": true, "ctrun": true, "gate": true, "statemachine": true, "all": true, "deepcopy": true,
	"openapidoc": true, "webhookconfig": true, "role": true,
}

func indexRepository(t *testing.T, root string) *index {
	t.Helper()
	idx := &index{top: map[string]bool{}, tests: map[string]bool{}, decls: map[string]map[string]bool{}}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") || e.Name() == ".ci" {
			idx.top[e.Name()] = true
		}
	}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (strings.HasPrefix(name, ".") || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.Contains(path, string(filepath.Separator)+"testdata"+string(filepath.Separator)) {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil // a file that does not parse cites nothing
		}
		pkg := strings.TrimSuffix(f.Name.Name, "_test")
		if idx.decls[pkg] == nil {
			idx.decls[pkg] = map[string]bool{}
		}
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				name := d.Name.Name
				if d.Recv != nil && len(d.Recv.List) == 1 {
					name = receiver(d.Recv.List[0].Type) + "." + name
				} else if strings.HasSuffix(path, "_test.go") {
					idx.tests[name] = true
				}
				idx.decls[pkg][name] = true
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						idx.decls[pkg][s.Name.Name] = true
						if st, ok := s.Type.(*ast.StructType); ok {
							for _, f := range st.Fields.List {
								for _, n := range f.Names {
									idx.decls[pkg][s.Name.Name+"."+n.Name] = true
								}
							}
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							idx.decls[pkg][n.Name] = true
						}
					}
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return idx
}

func receiver(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.StarExpr:
		return receiver(x.X)
	case *ast.IndexExpr:
		return receiver(x.X)
	case *ast.IndexListExpr:
		return receiver(x.X)
	case *ast.Ident:
		return x.Name
	}
	return ""
}

var (
	testName  = regexp.MustCompile(`^(Test|Fuzz|Benchmark)[A-Z0-9_]\w*$`)
	qualified = regexp.MustCompile(`^([a-z][a-z0-9]*)\.([A-Z]\w*(?:\.[A-Z]\w*)?)(?:\(\))?$`)
	pathLike  = regexp.MustCompile(`^\.?/?[A-Za-z0-9_.\-]+(?:/[A-Za-z0-9_.\-]+)+/?(?::\d+(?::\d+)?)?$`)
)

// check says what is wrong with one citation on a page in docDir ("" when
// it exists or is not a citation of the repository). A path is looked for
// from the page's directory and from the repository's root.
func (idx *index) check(root, docDir, c string) string {
	switch {
	case testName.MatchString(c):
		if !idx.tests[c] {
			return "no test, fuzz target or benchmark of this name"
		}
	case qualified.MatchString(c):
		m := qualified.FindStringSubmatch(c)
		if !ownPackages[m[1]] || idx.decls[m[1]] == nil {
			return ""
		}
		if !idx.decls[m[1]][m[2]] {
			return "package " + m[1] + " declares no " + m[2]
		}
	case pkgQualified.MatchString(c):
		// gen/crd.Verify: a directory and what its package declares
		m := pkgQualified.FindStringSubmatch(c)
		if first, _, _ := strings.Cut(m[1], "/"); !idx.top[first] {
			return "" // another module's package (apiextensions/v1.JSON)
		}
		if msg := idx.checkPath(root, docDir, m[1]); msg != "" {
			return msg
		}
		if decls := idx.decls[filepath.Base(m[1])]; decls != nil && !decls[m[2]] {
			return "package " + m[1] + " declares no " + m[2]
		}
	case pathLike.MatchString(c):
		return idx.checkPath(root, docDir, c)
	}
	return ""
}

var pkgQualified = regexp.MustCompile(`^([a-z0-9_]+(?:/[a-z0-9_]+)+)\.([A-Z]\w*(?:\.[A-Z]\w*)?)(?:\(\))?$`)

func (idx *index) checkPath(root, docDir, c string) string {
	p := strings.TrimPrefix(strings.TrimPrefix(c, "./"), "/")
	if i := strings.Index(p, ":"); i >= 0 {
		p = p[:i]
	}
	p = strings.TrimSuffix(p, "/")
	if _, err := os.Stat(filepath.Join(root, docDir, filepath.FromSlash(p))); err == nil {
		return ""
	}
	first, _, _ := strings.Cut(p, "/")
	if !idx.top[first] || first == "config" {
		return "" // a path in a user's project, or not a path
	}
	if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(p))); err != nil {
		return "no such file or directory in the repository"
	}
	return ""
}
