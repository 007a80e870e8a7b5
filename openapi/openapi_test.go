package openapi_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"sigs.k8s.io/yaml"

	"github.com/modelgen/modelgen/model"
	"github.com/modelgen/modelgen/openapi"
	"github.com/modelgen/modelgen/schema"

	"github.com/modelgen/modelgen/internal/testkit"
)

// The OpenAPI goldens live in testdata/<case>/: a Go package and
// want/openapi.yaml. They are compared as parsed YAML (formatting is not
// the point). Regenerate with
//
//	go test ./openapi -run TestGolden -update
//
// and review the diff.

type generated struct {
	model *model.Model
	set   *schema.Set
	docs  map[string][]byte // case -> YAML
}

var (
	genOnce sync.Once
	gen     generated
	genErr  error
)

func caseNames(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out
}

// generate loads every case package once (loading type-checks, which is
// the slow part) and builds one document per case, as the CLI does: one
// schema set for the model, one document per package.
func generate(t *testing.T) generated {
	t.Helper()
	cases := caseNames(t)
	genOnce.Do(func() {
		var patterns []string
		for _, c := range cases {
			patterns = append(patterns, "./"+c)
		}
		m, err := model.Load(model.Config{Dir: "testdata", Patterns: patterns})
		if err != nil {
			genErr = err
			return
		}
		if m.Diags.HasErrors() {
			genErr = fmt.Errorf("diagnostics:\n%s", m.Diags.Error())
			return
		}
		set := schema.Build(m, model.TargetOpenAPI)
		if set.Diags.HasErrors() {
			genErr = fmt.Errorf("schema diagnostics:\n%s", set.Diags.Error())
			return
		}
		gen = generated{model: m, set: set, docs: map[string][]byte{}}
		for _, c := range cases {
			pk := packageIn(m, filepath.Join("testdata", c))
			if pk == nil {
				genErr = fmt.Errorf("case %s: no package with a selected type", c)
				return
			}
			doc, err := openapi.Document(set, []*model.Package{pk}, openapi.Info{Title: "modelgen test " + c, Version: "1.2.3"})
			if err != nil {
				genErr = fmt.Errorf("case %s: %w", c, err)
				return
			}
			if gen.docs[c], err = openapi.YAML(doc); err != nil {
				genErr = err
				return
			}
		}
	})
	if genErr != nil {
		t.Fatal(genErr)
	}
	return gen
}

func packageIn(m *model.Model, dir string) *model.Package {
	abs, _ := filepath.Abs(dir)
	for _, pk := range m.Packages {
		if pk.Dir == abs {
			return pk
		}
	}
	return nil
}

func TestGolden(t *testing.T) {
	g := generate(t)
	for _, c := range caseNames(t) {
		t.Run(c, func(t *testing.T) {
			got := g.docs[c]
			path := filepath.Join("testdata", c, "want", "openapi.yaml")
			if testkit.Update() {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			var gotTree, wantTree any
			if err := yaml.Unmarshal(got, &gotTree); err != nil {
				t.Fatalf("generated YAML: %v", err)
			}
			if err := yaml.Unmarshal(want, &wantTree); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			if diffs := diffTrees("", wantTree, gotTree); len(diffs) > 0 {
				if len(diffs) > 20 {
					diffs = append(diffs[:20], fmt.Sprintf("... and %d more", len(diffs)-20))
				}
				t.Errorf("%s differs from the generated document (run with -update to accept):\n%s", path, strings.Join(diffs, "\n"))
			}
		})
	}
}

// diffTrees lists the paths where two parsed YAML documents differ.
func diffTrees(path string, want, got any) []string {
	wm, wok := want.(map[string]any)
	gm, gok := got.(map[string]any)
	if wok && gok {
		var out []string
		for _, k := range unionKeys(wm, gm) {
			w, inW := wm[k]
			g, inG := gm[k]
			p := path + "/" + strings.ReplaceAll(k, "/", "~1")
			switch {
			case !inG:
				out = append(out, "- "+p+" (missing)")
			case !inW:
				out = append(out, "+ "+p+" (unexpected)")
			default:
				out = append(out, diffTrees(p, w, g)...)
			}
		}
		return out
	}
	ws, wok := want.([]any)
	gs, gok := got.([]any)
	if wok && gok && len(ws) == len(gs) {
		var out []string
		for i := range ws {
			out = append(out, diffTrees(fmt.Sprintf("%s/%d", path, i), ws[i], gs[i])...)
		}
		return out
	}
	if !reflect.DeepEqual(want, got) {
		w, _ := json.Marshal(want)
		g, _ := json.Marshal(got)
		return []string{fmt.Sprintf("~ %s: want %s, got %s", path, w, g)}
	}
	return nil
}

func unionKeys(a, b map[string]any) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range []map[string]any{a, b} {
		for k := range m {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	sort.Strings(out)
	return out
}

// load parses a generated document back the way a client would.
func load(t *testing.T, data []byte) *openapi3.T {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromData(data)
	if err != nil {
		t.Fatalf("load generated document: %v", err)
	}
	return doc
}

func TestDocumentsValidate(t *testing.T) {
	g := generate(t)
	for c, data := range g.docs {
		if err := load(t, data).Validate(context.Background()); err != nil {
			t.Errorf("%s: the written document does not pass kin-openapi validation: %v", c, err)
		}
	}
}

// TestEverySchemaJudgedBothWays: oasdiff judges only what a path
// references, and judges request and response bodies by different rules, so
// every component must be reachable from some request body and from some
// response.
//
// One exception, on purpose: a resource's List type (and what only it
// reaches, such as ListMeta) appears in the list response alone. The
// Kubernetes API has no operation that takes a list, so a request-direction
// rule could only be met by inventing an endpoint; the items of a list are
// the resource itself, which is judged both ways.
func TestEverySchemaJudgedBothWays(t *testing.T) {
	g := generate(t)
	lists := listTypes(g.model)
	for c, data := range g.docs {
		doc := load(t, data)
		req, resp := reachable(doc, nil)
		_, respNotViaLists := reachable(doc, lists)
		for _, name := range openapi.SortedSchemaNames(doc) {
			if !resp[name] {
				t.Errorf("%s: component %s is in no response", c, name)
			}
			if !req[name] && (lists[name] || !respNotViaLists[name]) {
				continue // only reachable through a list
			}
			if !req[name] {
				t.Errorf("%s: component %s is in no request body, so oasdiff never judges it as input", c, name)
			}
		}
		// the exception must not swallow everything
		if len(req) == 0 {
			t.Errorf("%s: no request body references any component", c)
		}
	}
}

func listTypes(m *model.Model) map[string]bool {
	out := map[string]bool{}
	for _, t := range m.SortedTypes() {
		if t.Root && t.Resource == nil && t.Field("Items") != nil {
			out[t.Name] = true
		}
	}
	return out
}

// reachable returns the components reachable from request bodies and from
// responses, not walking into the components named in stop.
func reachable(doc *openapi3.T, stop map[string]bool) (req, resp map[string]bool) {
	req, resp = map[string]bool{}, map[string]bool{}
	for _, item := range doc.Paths.Map() {
		for _, op := range item.Operations() {
			if op.RequestBody != nil && op.RequestBody.Value != nil {
				for _, mt := range op.RequestBody.Value.Content {
					walk(doc, mt.Schema, req, stop)
				}
			}
			for _, r := range op.Responses.Map() {
				if r.Value == nil {
					continue
				}
				for _, mt := range r.Value.Content {
					walk(doc, mt.Schema, resp, stop)
				}
			}
		}
	}
	return req, resp
}

func walk(doc *openapi3.T, ref *openapi3.SchemaRef, seen, stop map[string]bool) {
	if ref == nil {
		return
	}
	if name, ok := strings.CutPrefix(ref.Ref, "#/components/schemas/"); ok {
		if seen[name] {
			return
		}
		seen[name] = true
		if stop[name] {
			return
		}
		ref = doc.Components.Schemas[name]
		if ref == nil {
			return
		}
	}
	s := ref.Value
	if s == nil {
		return
	}
	for _, p := range s.Properties {
		walk(doc, p, seen, stop)
	}
	walk(doc, s.Items, seen, stop)
	walk(doc, s.Not, seen, stop)
	if s.AdditionalProperties.Schema != nil {
		walk(doc, s.AdditionalProperties.Schema, seen, stop)
	}
	for _, group := range []openapi3.SchemaRefs{s.AllOf, s.AnyOf, s.OneOf} {
		for _, sub := range group {
			walk(doc, sub, seen, stop)
		}
	}
}
