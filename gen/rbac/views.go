package rbac

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/model"
	"github.com/modelgen/modelgen/openapi"
	"github.com/modelgen/modelgen/schema"
)

// views renders, for each package that asks for them (roleViews in
// modelgen.yaml), one OpenAPI document per role beside the package's
// document: openapi.<role>.yaml.
func views(c *gen.Context, rules *model.AccessRules) ([]gen.File, model.Diagnostics) {
	var files []gen.File
	var diags model.Diagnostics
	var index *openapi.Index // one for every package's views
	for _, pk := range c.Model.Packages {
		cfg := c.Config(pk)
		roles := rules.Roles[pk]
		if !hasViews(c, rules, pk) {
			continue
		}
		set := c.Schemas(model.TargetOpenAPI) // built once, shared with the openapi backend
		if set.Diags.HasErrors() {
			return nil, diags // the openapi backend reports them
		}
		if index == nil {
			index = openapi.NewIndex(set)
		}
		doc, err := index.Document([]*model.Package{pk}, openapi.Info{Title: cfg.Title, Version: cfg.Version, Description: cfg.Description})
		if err != nil {
			diags.Errorf(pk.Pos(), "rbac: role views: %v", err)
			continue
		}
		for _, role := range roles {
			view, err := RoleView(doc, rules, pk, role)
			if err == nil {
				var data []byte
				if data, err = openapi.YAML(view); err == nil {
					files = append(files, gen.File{Path: viewPath(pk, cfg, role), Data: data, Owner: pk.Path})
					continue
				}
			}
			diags.Errorf(pk.Pos(), "rbac: role view %s: %v", role, err)
		}
	}
	return files, diags
}

// ReadsSchemas: the role views are documents of the OpenAPI set; a run
// without them reads no schema set.
func (Generator) ReadsSchemas(c *gen.Context) []model.Target {
	for _, pk := range c.Model.Packages {
		if hasViews(c, c.Model.Access, pk) {
			return []model.Target{model.TargetOpenAPI}
		}
	}
	return nil
}

// hasViews reports whether a package gets role views: it asks for them
// (roleViews), has access roles and an entry type.
func hasViews(c *gen.Context, rules *model.AccessRules, pk *model.Package) bool {
	return rules != nil && gen.Own(c.Config(pk), Settings{}).RoleViews && len(rules.Roles[pk]) > 0 && hasEntry(pk)
}

func hasEntry(pk *model.Package) bool {
	for _, t := range pk.Types {
		if t.Root || t.Model {
			return true
		}
	}
	return false
}

func viewPath(pk *model.Package, cfg gen.Config, role string) string {
	p := filepath.Join(pk.Dir, cfg.OpenAPI)
	ext := filepath.Ext(p)
	return strings.TrimSuffix(p, ext) + "." + role + ext
}

// RoleView returns a copy of an OpenAPI document holding only what a role
// may see: properties it may not read are removed from the schemas of
// governed types (and from their required lists, and the CEL rules that
// read them from the schema's x-kubernetes-validations), embedded structs it
// may not read leave their allOf, operations its Kubernetes verbs do not allow
// leave the paths (see Rights.Verbs; delete is never kept), and components
// no path reaches any more are dropped. doc is not modified.
func RoleView(doc *openapi3.T, rules *model.AccessRules, pk *model.Package, role string) (*openapi3.T, error) {
	view, err := deepCopy(doc)
	if err != nil {
		return nil, err
	}
	index := componentTypes(view, rules, pk)
	for _, name := range sortedNames(view.Components.Schemas) {
		if tr := index[name]; tr != nil {
			pruneSchema(view.Components.Schemas[name].Value, tr, role)
		}
	}
	prunePaths(view, rules, pk, role)
	dropUnreachable(view)
	if err := view.Validate(context.Background()); err != nil {
		return nil, fmt.Errorf("the view is invalid: %w", err)
	}
	return view, nil
}

func deepCopy(doc *openapi3.T) (*openapi3.T, error) {
	data, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	return openapi3.NewLoader().LoadFromData(data)
}

// componentTypes maps component names to governed types, as openapi names
// them: the Go name, or "<package>.<Name>" when two packages share it (the
// documented package's types win the plain name).
func componentTypes(doc *openapi3.T, rules *model.AccessRules, pk *model.Package) map[string]*model.TypeAccess {
	out := map[string]*model.TypeAccess{}
	for _, tr := range rules.Sorted() {
		t := tr.Type
		if _, ok := doc.Components.Schemas[t.Pkg.Name+"."+t.Name]; ok {
			out[t.Pkg.Name+"."+t.Name] = tr
		}
		if prev, taken := out[t.Name]; !taken || t.Pkg == pk && prev.Type.Pkg != pk {
			out[t.Name] = tr
		}
	}
	return out
}

// pruneSchema removes from one component what the role may not read, by the
// type's own rules (containers are separate components).
func pruneSchema(s *openapi3.Schema, tr *model.TypeAccess, role string) {
	var hidden []string
	for _, fr := range tr.Fields {
		if contains(fr.Read, role) {
			continue
		}
		switch {
		case fr.Inline():
			s.AllOf = slices.DeleteFunc(s.AllOf, func(r *openapi3.SchemaRef) bool {
				return refTypeName(r.Ref) == fr.Field.Type.Deref().TypeName
			})
			hidden = append(hidden, jsonNames(fr.Field.Type.Deref().Named, 0)...)
		case !fr.Field.Skip:
			delete(s.Properties, fr.Field.JSONName)
			s.Required = slices.DeleteFunc(s.Required, func(n string) bool { return n == fr.Field.JSONName })
			hidden = append(hidden, fr.Field.JSONName)
		}
	}
	if len(s.Required) == 0 {
		s.Required = nil
	}
	dropRulesReading(s, hidden)
}

// jsonNames lists the JSON names of a struct's fields, inlined ones'
// included.
func jsonNames(t *model.Type, depth int) []string {
	if t == nil || depth > 8 {
		return nil
	}
	var out []string
	for _, f := range t.Fields {
		switch {
		case f.Skip:
		case f.Inline:
			out = append(out, jsonNames(f.Type.Deref().Named, depth+1)...)
		case f.JSONName != "":
			out = append(out, f.JSONName)
		}
	}
	return out
}

// ruleName is the x- extension that carries CEL rules.
const ruleName = "x-kubernetes-validations"

// dropRulesReading removes the CEL rules that read a property the view
// hides: in the view they would not compile, and the role could not
// satisfy them anyway. A rule reads a property through self, oldSelf or
// oldSelf.value(), with the name escaped as schema.CELField writes it.
func dropRulesReading(s *openapi3.Schema, hidden []string) {
	rules, ok := s.Extensions[ruleName].([]any)
	if !ok || len(hidden) == 0 {
		return
	}
	var alts []string
	for _, name := range hidden {
		if sel, ok := schema.CELField("", name); ok {
			alts = append(alts, regexp.QuoteMeta(sel))
		}
	}
	if len(alts) == 0 {
		return
	}
	reads := regexp.MustCompile(`\b(?:self|oldSelf|value\(\))(?:` + strings.Join(alts, "|") + `)\b`)
	keep := rules[:0:0]
	for _, r := range rules {
		rule, _ := r.(map[string]any)
		text, _ := rule["rule"].(string)
		msg, _ := rule["messageExpression"].(string)
		if !reads.MatchString(text) && !reads.MatchString(msg) {
			keep = append(keep, r)
		}
	}
	if len(keep) == 0 {
		delete(s.Extensions, ruleName)
		return
	}
	s.Extensions[ruleName] = keep
}

func refTypeName(ref string) string {
	name := strings.TrimPrefix(ref, "#/components/schemas/")
	return name[strings.LastIndex(name, ".")+1:]
}

// prunePaths keeps the operations the role's verbs allow on each resource.
func prunePaths(doc *openapi3.T, rules *model.AccessRules, pk *model.Package, role string) {
	for _, t := range pk.Types {
		tr := rules.For(t)
		if tr == nil || !tr.Flat {
			continue
		}
		r := RoleRights(tr, role)
		switch {
		case t.Resource != nil && t.Pkg.Group != "":
			base := resourceBase(t)
			keepOps(doc, base, r.Read, r.Write, false)
			keepOps(doc, base+"/{name}", r.Read, r.Write, false)
			keepOps(doc, base+"/{name}/status", r.ReadStatus, r.WriteStatus, false)
		case t.Model:
			keepOps(doc, "/models/"+t.Pkg.Name+"/"+t.Name, r.Read, r.Read || r.Write, false)
		}
	}
}

// resourceBase is the collection path openapi.Document gives a resource.
func resourceBase(t *model.Type) string {
	base := "/apis/" + t.Pkg.Group + "/" + t.Pkg.Version
	if t.Resource.Namespaced {
		base += "/namespaces/{namespace}"
	}
	return base + "/" + t.Resource.Plural
}

func keepOps(doc *openapi3.T, path string, read, write, del bool) {
	item := doc.Paths.Value(path)
	if item == nil {
		return
	}
	if !read {
		item.Get = nil
	}
	if !write {
		item.Post, item.Put, item.Patch = nil, nil, nil
	}
	if !del {
		item.Delete = nil
	}
	if len(item.Operations()) == 0 {
		doc.Paths.Delete(path)
	}
}

// dropUnreachable removes the components no path reaches.
func dropUnreachable(doc *openapi3.T) {
	reached := map[string]bool{}
	var queue []string
	mark := func(v any) {
		for _, ref := range refsIn(v) {
			name := strings.TrimPrefix(ref, "#/components/schemas/")
			if !reached[name] {
				reached[name] = true
				queue = append(queue, name)
			}
		}
	}
	mark(doc.Paths)
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		if s := doc.Components.Schemas[name]; s != nil {
			mark(s.Value)
		}
	}
	for name := range doc.Components.Schemas {
		if !reached[name] {
			delete(doc.Components.Schemas, name)
		}
	}
}

// refsIn lists every $ref in a document part, through its JSON form.
func refsIn(v any) []string {
	data, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var tree any
	if json.Unmarshal(data, &tree) != nil {
		return nil
	}
	var out []string
	var walk func(any)
	walk = func(x any) {
		switch y := x.(type) {
		case map[string]any:
			if r, ok := y["$ref"].(string); ok {
				out = append(out, r)
			}
			for _, k := range sortedNames(y) {
				walk(y[k])
			}
		case []any:
			for _, e := range y {
				walk(e)
			}
		}
	}
	walk(tree)
	return out
}

func sortedNames[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
