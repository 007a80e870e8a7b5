package gen_test

import (
	"os/exec"
	"slices"
	"sort"
	"strings"
	"testing"
)

const mod = "github.com/modelgen/modelgen"

// A layer rule forbids a set of packages (from) to import another set
// (imports): directly, or through any chain of the module's packages when
// transitive is set. Rules are data; TestLayerRulesCatch proves each one
// fires, TestLayering runs them over the real import graph.
type layerRule struct {
	name       string
	from       func(pkg string) bool
	imports    func(from, imp string) bool
	transitive bool
	why        string
}

// libraries are packages under gen/ that backends share and that are not
// backends themselves.
var libraries = []string{mod + "/gen/ctrun"}

// backendList is the package that lists the backends (and so imports them
// all).
const backendList = mod + "/gen/all"

// backend reports a backend package: gen/<name>, not a shared library
// (gen/internal/... are libraries too) nor the list of backends.
func backend(pkg string) bool {
	name, ok := strings.CutPrefix(pkg, mod+"/gen/")
	return ok && !strings.Contains(name, "/") && !slices.Contains(libraries, pkg) && pkg != backendList
}

func under(prefix string) func(string) bool {
	return func(pkg string) bool { return pkg == mod+"/"+prefix || strings.HasPrefix(pkg, mod+"/"+prefix+"/") }
}

var layerRules = []layerRule{
	{
		name:    "production code imports no test kit",
		from:    func(pkg string) bool { return !under("internal/testkit")(pkg) },
		imports: func(_, imp string) bool { return under("internal/testkit")(imp) },
		why:     "internal/testkit is what the tests share; a library production code needs too lives beside its callers (the API-server judge is internal/crdjudge)",
	},
	{
		name: "tag parsers",
		from: func(pkg string) bool { return !under("model")(pkg) },
		imports: func(_, imp string) bool {
			return imp == mod+"/model/vtag" || imp == mod+"/model/statetag" || imp == mod+"/model/accesstag"
		},
		why: "every tag is parsed once, by model: read the resolved IR (Field.Validate, Field.Machine, Field.Access) instead",
	},
	{
		name:       "the IR imports no backend",
		from:       func(pkg string) bool { return pkg == mod+"/model" },
		imports:    func(_, imp string) bool { return under("schema")(imp) || under("gen")(imp) || under("openapi")(imp) },
		transitive: true,
		why:        "model is the IR the backends read; a backend's code in it reaches up a layer",
	},
	{
		name:       "schema imports no backend",
		from:       under("schema"),
		imports:    func(_, imp string) bool { return under("gen")(imp) || under("openapi")(imp) },
		transitive: true,
		why:        "schema (the structural schemas and the keywords' lowering) sits below the backends and the OpenAPI document that call it",
	},
	{
		name:       "openapi imports no backend",
		from:       under("openapi"),
		imports:    func(_, imp string) bool { return under("gen")(imp) },
		transitive: true,
		why:        "openapi builds the document from the IR and schema; the backends (gen/openapidoc, gen/crd) call it, not the other way round",
	},
	{
		name: "nothing below the CLI imports the gate",
		from: func(pkg string) bool {
			return under("model")(pkg) || under("schema")(pkg) || under("openapi")(pkg) || under("gen")(pkg) || under("internal")(pkg)
		},
		imports:    func(_, imp string) bool { return under("gate")(imp) },
		transitive: true,
		why:        "the gate judges what the generators wrote; a generator that needs one of its names takes it from a package below both (model, openapi/ext)",
	},
	{
		name: "internal libraries import no backend",
		from: under("internal"),
		imports: func(_, imp string) bool {
			return backend(imp) || imp == backendList || under("cmd")(imp) || under("gate")(imp)
		},
		transitive: true,
		why:        "internal/... are the libraries every layer shares (file reads, YAML, the API-server judge, the type check, the writer); a backend's or the CLI's code in them reaches up a layer",
	},
	{
		name: "the CLI imports gen/all and no backend",
		from: under("cmd"),
		imports: func(_, imp string) bool {
			return backend(imp) || slices.Contains(libraries, imp) || under("gen/internal")(imp)
		},
		why: "a run of the command line, native or controller-gen's, is gen/all's pipeline (all.Run) with a selection of its backends; the CLI names backends and their options through gen/all",
	},
	{
		name:    "a backend imports no other backend",
		from:    backend,
		imports: func(from, imp string) bool { return backend(imp) && imp != from },
		why:     "backends are independent functions of the model; share code through model, schema, openapi or a gen library",
	},
	{
		name:    "backends read types from the IR",
		from:    func(pkg string) bool { return under("gen")(pkg) && pkg != mod+"/gen/deepcopy" },
		imports: func(_, imp string) bool { return imp == "go/types" },
		why:     "the model resolved the Go types; only gen/deepcopy, which writes code from the type checker's view, reads go/types",
	},
}

// knownExceptions are edges the rules forbid that the code still has, each
// with why it is listed. An edge that disappears must leave the list.
var knownExceptions = map[string]string{}

// TestLayering checks the layers of the pipeline over the import graph of
// the module (go list; non-test imports, and for the tag parsers test
// imports too): see layerRules. An edge in knownExceptions is allowed
// while it exists; one that no longer exists must leave the list.
func TestLayering(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}|{{join .Imports \" \"}}|{{join .TestImports \" \"}} {{join .XTestImports \" \"}}", "../...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	g := graph{}
	tests := graph{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		parts := strings.SplitN(line, "|", 3)
		if len(parts) != 3 {
			t.Fatalf("go list printed %q", line)
		}
		g[parts[0]] = strings.Fields(parts[1])
		tests[parts[0]] = strings.Fields(parts[2])
	}
	backends := 0
	for pkg := range g {
		if backend(pkg) {
			backends++
		}
	}
	if backends < 8 {
		t.Errorf("go list found %d backend packages; the test no longer looks at them", backends)
	}
	found := violations(g, tests)
	for _, v := range found {
		if _, ok := knownExceptions[v.edge]; !ok {
			t.Errorf("%s: %s (%s)", v.rule.name, v.path, v.rule.why)
		}
	}
	for edge, why := range knownExceptions {
		if !slices.ContainsFunc(found, func(v violation) bool { return v.edge == edge }) {
			t.Errorf("known exception %s (%s) no longer exists: remove it from knownExceptions", edge, why)
		}
	}
}

type graph map[string][]string

type violation struct {
	rule *layerRule
	edge string // from -> the forbidden import
	path string // the chain of imports that reaches it
}

// violations applies every rule to the graph (tests adds the test imports
// the tag parser rule also looks at).
func violations(g, tests graph) []violation {
	var out []violation
	pkgs := make([]string, 0, len(g))
	for p := range g {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for i := range layerRules {
		r := &layerRules[i]
		for _, p := range pkgs {
			if !r.from(p) {
				continue
			}
			imports := g[p]
			if r.name == "tag parsers" {
				imports = append(slices.Clone(imports), tests[p]...)
			}
			for _, path := range reach(g, p, imports, r.transitive) {
				if imp := path[len(path)-1]; r.imports(p, imp) {
					out = append(out, violation{rule: r, edge: p + " -> " + imp, path: strings.Join(path, " -> ")})
				}
			}
		}
	}
	return out
}

// reach lists, for every package the imports reach (directly, or through
// the graph's packages when transitive), one import chain from p to it.
func reach(g graph, p string, imports []string, transitive bool) [][]string {
	seen := map[string]bool{p: true}
	var out [][]string
	queue := [][]string{}
	for _, imp := range imports {
		if !seen[imp] {
			seen[imp] = true
			queue = append(queue, []string{p, imp})
		}
	}
	for len(queue) > 0 {
		path := queue[0]
		queue = queue[1:]
		out = append(out, path)
		if !transitive {
			continue
		}
		for _, next := range g[path[len(path)-1]] {
			if !seen[next] {
				seen[next] = true
				queue = append(queue, append(slices.Clone(path), next))
			}
		}
	}
	return out
}

// TestLayerRulesCatch feeds the rules a graph with one breach of each and
// clean neighbours: every rule fires exactly where it should.
func TestLayerRulesCatch(t *testing.T) {
	m := func(p string) string { return mod + "/" + p }
	g := graph{
		m("model"):            {m("model/vtag"), m("internal/helper")},
		m("internal/helper"):  {m("openapi/ext")}, // model reaches openapi through a helper
		m("model/vtag"):       {"strings"},
		m("openapi/ext"):      {"strings"},
		m("gen/webhook"):      {m("model/accesstag"), m("model")},
		m("schema"):           {m("model/mermaid")},
		m("model/mermaid"):    {m("gen/ctrun")},
		m("gen/ctrun"):        {m("model")},
		m("gen/crd"):          {m("gen/deepcopy"), m("gen/ctrun"), "go/types"},
		m("gen/deepcopy"):     {"go/types", m("model")},
		m("agree"):            {m("model")},
		m("openapi"):          {m("schema"), m("gen/ctrun")},
		m("internal/writer"):  {m("gen"), m("internal/fsread"), m("gen/conversion")},
		m("internal/fsread"):  {m("gen/webhook")},
		m("gate"):             {m("openapi"), m("internal/fsread")},
		m("gen/conversion"):   {m("gate")},
		m("cmd/internal/cli"): {m("gen/all"), m("gen"), m("gen/policy"), m("gate")},
		m("gen/all"):          {m("gen/policy")},
	}
	tests := graph{m("agree"): {m("model/statetag")}}
	want := []string{
		"tag parsers: " + m("gen/webhook") + " -> " + m("model/accesstag"),
		"tag parsers: " + m("agree") + " -> " + m("model/statetag"),
		"the IR imports no backend: " + m("model") + " -> " + m("openapi/ext"),
		"schema imports no backend: " + m("schema") + " -> " + m("gen/ctrun"),
		"a backend imports no other backend: " + m("gen/crd") + " -> " + m("gen/deepcopy"),
		"backends read types from the IR: " + m("gen/crd") + " -> go/types",
		"openapi imports no backend: " + m("openapi") + " -> " + m("gen/ctrun"),
		"internal libraries import no backend: " + m("internal/fsread") + " -> " + m("gen/webhook"),
		"internal libraries import no backend: " + m("internal/writer") + " -> " + m("gen/webhook"),
		"schema imports no backend: " + m("schema") + " -> " + m("openapi/ext"),
		"nothing below the CLI imports the gate: " + m("gen/conversion") + " -> " + m("gate"),
		"nothing below the CLI imports the gate: " + m("internal/writer") + " -> " + m("gate"),
		"internal libraries import no backend: " + m("internal/writer") + " -> " + m("gate"),
		"internal libraries import no backend: " + m("internal/writer") + " -> " + m("gen/conversion"),
		"the CLI imports gen/all and no backend: " + m("cmd/internal/cli") + " -> " + m("gen/policy"),
	}
	var got []string
	for _, v := range violations(g, tests) {
		got = append(got, v.rule.name+": "+v.edge)
	}
	sort.Strings(got)
	sort.Strings(want)
	if !slices.Equal(got, want) {
		t.Errorf("the rules found\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// TestModelTestsImportNoBackend checks that the model's tests test the
// model alone: the pipeline's wiring is tested where it lives (gen/all,
// cmd/internal/cli), not from a lower layer.
func TestModelTestsImportNoBackend(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}:{{join .TestImports \" \"}} {{join .XTestImports \" \"}}", "../model/...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	for _, line := range lines {
		pkg, imports, _ := strings.Cut(line, ":")
		for _, imp := range strings.Fields(imports) {
			if strings.HasPrefix(imp, mod+"/gen") || strings.HasPrefix(imp, mod+"/cmd/") {
				t.Errorf("the tests of %s import %s", pkg, imp)
			}
		}
	}
	if len(lines) < 3 {
		t.Errorf("go list found %d model packages; the test no longer looks at them", len(lines))
	}
}
