// Package openapi builds the OpenAPI 3.0.3 document of a model with
// kin-openapi: a component schema for every selected type (and every type
// they reference), and paths that reference each of them in request and
// response position, because compatibility checkers such as oasdiff only
// judge schemas that a path reaches.
//
// # Paths
//
// A Kubernetes resource root gets the API server's own paths:
//
//	/apis/{group}/{version}/namespaces/{namespace}/{plural}          list, create
//	/apis/{group}/{version}/namespaces/{namespace}/{plural}/{name}   get, replace, patch, delete
//	/apis/{group}/{version}/namespaces/{namespace}/{plural}/{name}/status  (with a status subresource)
//
// (without /namespaces/{namespace} for cluster-scoped resources). A plain
// model (+modelgen:model) gets /models/{package}/{Type}: POST takes and
// returns the model, so its schema is judged in both directions.
package openapi

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/modelgen/modelgen/internal/yamlout"
	"github.com/modelgen/modelgen/model"
	"github.com/modelgen/modelgen/openapi/internal/ecma"
	"github.com/modelgen/modelgen/schema"
)

// Info is the document's info block.
type Info struct {
	Title       string
	Version     string
	Description string
}

// Document builds the OpenAPI document for the types of the given packages.
// Properties carry the model's state machines and access rules as
// extensions (see Extensions), for the compatibility gate. Build also
// returns its warnings.
func Document(set *schema.Set, pkgs []*model.Package, info Info) (*openapi3.T, error) {
	doc, _, err := Build(set, pkgs, info)
	return doc, err
}

// Build builds the OpenAPI document for the types of the given packages,
// with the warnings about what it cannot say (a pattern without an
// ECMA-262 form).
func Build(set *schema.Set, pkgs []*model.Package, info Info) (*openapi3.T, model.Diagnostics, error) {
	return NewIndex(set).Build(pkgs, info)
}

// An Index is what the documents of one schema set look types up in: the
// set's reference links, its model types and the user's packages. A
// backend that builds a document per package builds them from one Index,
// so that each document costs what its own types cost and not what every
// package's types cost (a module of 150 packages indexed its 30,000 types
// once per document). Not safe for concurrent use.
type Index struct {
	set   *schema.Set
	links map[string]crd.TypeIdent // controller-tools ref link -> type
	types map[crd.TypeIdent]*model.Type
	user  map[*loader.Package]bool
	enums []*model.Type // enumTypes, once
}

// indexed, when set (by a test), sees every indexing of the links.
var indexed func()

// NewIndex indexes a schema set for the documents built from it.
func NewIndex(set *schema.Set) *Index {
	x := &Index{set: set, user: map[*loader.Package]bool{}}
	x.linkIndex()
	x.typeIndex()
	for _, pk := range set.Model.Packages {
		x.user[pk.Loaded] = true
	}
	return x
}

// Document is Document on the index's set.
func (x *Index) Document(pkgs []*model.Package, info Info) (*openapi3.T, error) {
	doc, _, err := x.Build(pkgs, info)
	return doc, err
}

// Build is Build on the index's set.
func (x *Index) Build(pkgs []*model.Package, info Info) (*openapi3.T, model.Diagnostics, error) {
	d, warnings, err := x.Assemble(pkgs, info)
	if err != nil {
		return nil, nil, err
	}
	doc, err := d.Finish()
	if err != nil {
		return nil, nil, err
	}
	return doc, warnings, nil
}

// A Draft is a document Assemble has put together and Finish has not yet
// checked.
type Draft struct{ doc *openapi3.T }

// Assemble is Build's first step, the one that asks the schema set's
// parser (and so the only one that must not run beside another): the
// document's components and paths, with its warnings.
func (x *Index) Assemble(pkgs []*model.Package, info Info) (*Draft, model.Diagnostics, error) {
	set := x.set
	b := &docBuilder{Index: x, set: set, names: map[string]string{}, taken: map[string]bool{}, done: map[string]bool{}}
	doc := &openapi3.T{
		OpenAPI:    "3.0.3",
		Info:       &openapi3.Info{Title: info.Title, Version: info.Version, Description: info.Description},
		Components: &openapi3.Components{Schemas: openapi3.Schemas{}},
		Paths:      openapi3.NewPaths(),
	}
	b.doc = doc
	var types []*model.Type
	for _, pk := range pkgs {
		types = append(types, pk.Types...)
	}
	for _, t := range types {
		b.add(schema.Ident(t))
	}
	if b.err != nil {
		return nil, nil, b.err
	}
	b.enumComponents()
	lists := listTypes(types)
	for _, t := range types {
		b.paths(t, lists)
	}
	return &Draft{doc}, b.warnings, nil
}

// Finish is Build's second step: it prunes the components no path
// reaches, resolves the references and validates the document. It reads
// the draft only, so the drafts of several documents finish at once.
func (d *Draft) Finish() (*openapi3.T, error) {
	doc := d.doc
	pruneUnreached(doc)
	refSiblings(doc)
	if err := openapi3.NewLoader().ResolveRefsIn(doc, nil); err != nil {
		return nil, fmt.Errorf("the generated OpenAPI document has a broken reference: %w", err)
	}
	restore := stubReferences(doc)
	err := doc.Validate(context.Background(), openapi3.SetRegexCompiler(ECMARegexCompiler))
	restore()
	if err != nil {
		return nil, fmt.Errorf("the generated OpenAPI document is invalid: %w", err)
	}
	return doc, nil
}

// stubReferences points every $ref of the document, in the components and
// in the paths, at an empty schema until the returned function puts the
// resolved values back. kin-openapi's Validate follows a reference into
// the component it names and remembers what it validated for one call
// only, so a component was validated again from every schema and every
// path that names it (a kind's schema once per operation); each component
// is validated once, as a component, and a reference as itself (its
// siblings). The document is the draft's own, so no other goroutine sees
// the stubs.
func stubReferences(doc *openapi3.T) (restore func()) {
	stub := &openapi3.Schema{}
	type kept struct {
		ref   *openapi3.SchemaRef
		value *openapi3.Schema
	}
	var all []kept
	var walk func(r *openapi3.SchemaRef)
	walk = func(r *openapi3.SchemaRef) {
		if r == nil || r.Value == nil || r.Value == stub {
			return
		}
		if r.Ref != "" {
			all = append(all, kept{r, r.Value})
			r.Value = stub
			return
		}
		v := r.Value
		for _, sub := range v.Properties {
			walk(sub)
		}
		walk(v.Items)
		walk(v.AdditionalProperties.Schema)
		for _, l := range []openapi3.SchemaRefs{v.AllOf, v.AnyOf, v.OneOf} {
			for _, sub := range l {
				walk(sub)
			}
		}
		walk(v.Not)
	}
	content := func(c openapi3.Content) {
		for _, mt := range c {
			if mt != nil {
				walk(mt.Schema)
			}
		}
	}
	params := func(ps openapi3.Parameters) {
		for _, p := range ps {
			if p != nil && p.Value != nil {
				walk(p.Value.Schema)
				content(p.Value.Content)
			}
		}
	}
	if doc.Components != nil {
		for _, r := range doc.Components.Schemas {
			walk(r)
		}
	}
	if doc.Paths != nil {
		for _, item := range doc.Paths.Map() {
			params(item.Parameters)
			for _, op := range item.Operations() {
				params(op.Parameters)
				if op.RequestBody != nil && op.RequestBody.Value != nil {
					content(op.RequestBody.Value.Content)
				}
				if op.Responses != nil {
					for _, resp := range op.Responses.Map() {
						if resp != nil && resp.Value != nil {
							content(resp.Value.Content)
						}
					}
				}
			}
		}
	}
	return func() {
		for _, k := range all {
			k.ref.Value = k.value
		}
	}
}

// ECMARegexCompiler compiles a pattern of the document as ECMA-262, the
// dialect OpenAPI gives `pattern` (kin-openapi's default is Go's RE2).
func ECMARegexCompiler(expr string) (openapi3.RegexMatcher, error) {
	// kin-openapi caches compiled patterns only for its own compiler and
	// calls a custom one for every schema it validates, so a document of
	// 1000 kinds compiled the same few patterns hundreds of thousands of
	// times (a third of the OpenAPI step's allocations); compile each once.
	if v, ok := ecmaPatterns.Load(expr); ok {
		c := v.(compiledPattern)
		return c.re, c.err
	}
	re, err := ecma.Compile(expr)
	ecmaPatterns.Store(expr, compiledPattern{re, err})
	return re, err
}

// ecmaPatterns holds each pattern ECMARegexCompiler compiled (ecma.Regexp
// is safe for concurrent use).
var ecmaPatterns sync.Map

type compiledPattern struct {
	re  *ecma.Regexp
	err error
}

// YAML renders the document deterministically (keys sorted).
func YAML(doc *openapi3.T) ([]byte, error) {
	if tree, ok := jsonTree(doc); ok {
		return yamlout.Encode(tree) // the JSON path's bytes, without the JSON
	}
	js, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	return yamlout.FromJSON(js) // JSONToYAML's bytes, one YAML pass
}

type docBuilder struct {
	*Index
	set   *schema.Set
	doc   *openapi3.T
	names map[string]string // ref link -> component name
	taken map[string]bool   // the component names given
	done  map[string]bool
	err   error
	// warnings are what the document leaves out, at the fields' positions
	warnings model.Diagnostics
}

// linkIndex maps controller-tools' reference links to types: the parsed
// types and the ones a package override gave a schema directly
// (IntOrString, Quantity and the other well-known types).
func (x *Index) linkIndex() {
	if indexed != nil {
		indexed()
	}
	x.links = map[string]crd.TypeIdent{}
	for id := range x.set.Parser.Types {
		x.links[crd.TypeRefLink(id.Package.PkgPath, id.Name)] = id
	}
	for id := range x.set.Parser.Schemata {
		x.links[crd.TypeRefLink(id.Package.PkgPath, id.Name)] = id
	}
}

// componentName names a type: user types by their Go name (prefixed by the
// package name when two packages share a name), library types by their
// reversed import path, as Kubernetes does (io.k8s.apimachinery...).
func (b *docBuilder) componentName(id crd.TypeIdent) string {
	link := crd.TypeRefLink(id.Package.PkgPath, id.Name)
	if n, ok := b.names[link]; ok {
		return n
	}
	name := id.Name
	if !b.isUserType(id) {
		name = k8sName(id.Package.PkgPath) + "." + id.Name
	}
	if b.taken[name] {
		name = id.Package.Name + "." + id.Name
	}
	b.names[link], b.taken[name] = name, true
	return name
}

func (x *Index) isUserType(id crd.TypeIdent) bool { return x.user[id.Package] }

func k8sName(path string) string {
	parts := strings.Split(path, "/")
	if len(parts) > 0 {
		host := strings.Split(parts[0], ".")
		for i, j := 0, len(host)-1; i < j; i, j = i+1, j-1 {
			host[i], host[j] = host[j], host[i]
		}
		parts[0] = strings.Join(host, ".")
	}
	return strings.Join(parts, ".")
}

// add converts a type's schema to a component, following its references.
func (b *docBuilder) add(id crd.TypeIdent) string {
	name := b.componentName(id)
	link := crd.TypeRefLink(id.Package.PkgPath, id.Name)
	if b.done[link] {
		return name
	}
	b.done[link] = true
	b.set.Parser.NeedSchemaFor(id)
	props := b.set.Parser.Schemata[id]
	sc := props.DeepCopy()
	b.rewriteRefs(sc, id)
	b.clientShapes(sc, id)
	ref, direct, err := toKin(name, sc)
	if err != nil {
		b.err = err
		return name
	}
	if checkConversion != nil {
		checkConversion(name, sc, ref, direct)
	}
	if t := b.modelType(id); t != nil {
		b.extend(t, ref.Value)
		namedEnums(t, ref.Value)
	}
	timeFormat(id, ref.Value)
	b.doc.Components.Schemas[name] = ref
	return name
}

// checkConversion, when set (by a test), sees every component's schema
// with what toKin made of it.
var checkConversion func(name string, sc *apiext.JSONSchemaProps, got *openapi3.SchemaRef, direct bool)

// modelType finds the model's type for a controller-tools identity, as
// schema.Set.TypeOf does, from an index: every component asks.
func (x *Index) modelType(id crd.TypeIdent) *model.Type {
	return x.types[id]
}

// typeIndex indexes what TypeOf finds: the unvalidated variants, then each
// package's types by name (the first of a name, as TypeOf's scan).
func (x *Index) typeIndex() {
	x.types = map[crd.TypeIdent]*model.Type{}
	for id, t := range x.set.Unvalidated {
		x.types[id] = t
	}
	for _, pk := range x.set.Model.Packages {
		for _, t := range pk.Types {
			id := crd.TypeIdent{Package: pk.Loaded, Name: t.Name}
			if _, ok := x.types[id]; !ok {
				x.types[id] = t
			}
		}
	}
}

// extend adds the features' extensions to the properties of a type. A
// property that is a bare $ref is wrapped in allOf, since OpenAPI 3.0
// ignores the siblings of a $ref.
func (b *docBuilder) extend(t *model.Type, s *openapi3.Schema) {
	if s == nil {
		return
	}
	for _, f := range t.Fields {
		if f.JSONName == "" || s.Properties[f.JSONName] == nil {
			continue
		}
		exts := Extensions(f)
		if len(exts) == 0 {
			continue
		}
		prop := s.Properties[f.JSONName]
		if prop.Ref != "" {
			prop = &openapi3.SchemaRef{Value: &openapi3.Schema{AllOf: openapi3.SchemaRefs{prop}}}
			s.Properties[f.JSONName] = prop
		}
		if prop.Value.Extensions == nil {
			prop.Value.Extensions = map[string]any{}
		}
		for k, v := range exts {
			prop.Value.Extensions[k] = v
		}
	}
}

func (b *docBuilder) ref(t *model.Type) *openapi3.SchemaRef {
	return openapi3.NewSchemaRef("#/components/schemas/"+b.componentName(schema.Ident(t)), nil)
}

func (b *docBuilder) paths(t *model.Type, lists map[typeName]*model.Type) {
	switch {
	case t.Resource != nil && t.Pkg.Group != "":
		b.resourcePaths(t, lists[typeName{t.Pkg, t.Name + "List"}])
	case t.Model:
		b.modelPaths(t)
	}
}

// typeName is a type's name in its package.
type typeName struct {
	pkg  *model.Package
	name string
}

// listTypes indexes the types by name, for the List type of each resource
// (the first of a name, as a scan of all would find it).
func listTypes(all []*model.Type) map[typeName]*model.Type {
	out := make(map[typeName]*model.Type, len(all))
	for _, t := range all {
		if k := (typeName{t.Pkg, t.Name}); out[k] == nil {
			out[k] = t
		}
	}
	return out
}

func (b *docBuilder) resourcePaths(t *model.Type, list *model.Type) {
	r := t.Resource
	base := "/apis/" + t.Pkg.Group + "/" + t.Pkg.Version
	params := openapi3.Parameters{}
	if r.Namespaced {
		base += "/namespaces/{namespace}"
		params = append(params, pathParam("namespace"))
	}
	base += "/" + r.Plural
	obj := b.ref(t)
	var listSchema *openapi3.SchemaRef
	if list != nil {
		listSchema = b.ref(list)
	} else {
		listSchema = openapi3.NewSchemaRef("", openapi3.NewObjectSchema().WithProperty("items", &openapi3.Schema{Type: &openapi3.Types{"array"}, Items: obj}))
	}
	tag := r.Kind
	b.doc.Paths.Set(base, &openapi3.PathItem{
		Parameters: params,
		Get:        op("list"+r.Kind, tag, "List "+r.Plural+".", nil, listSchema),
		Post:       op("create"+r.Kind, tag, "Create a "+r.Singular+".", obj, obj),
	})
	named := append(append(openapi3.Parameters{}, params...), pathParam("name"))
	b.doc.Paths.Set(base+"/{name}", &openapi3.PathItem{
		Parameters: named,
		Get:        op("read"+r.Kind, tag, "Read a "+r.Singular+".", nil, obj),
		Put:        op("replace"+r.Kind, tag, "Replace a "+r.Singular+".", obj, obj),
		Patch:      patchOp("patch"+r.Kind, tag, "Patch a "+r.Singular+".", obj),
		Delete:     op("delete"+r.Kind, tag, "Delete a "+r.Singular+".", nil, obj),
	})
	if r.Status {
		b.doc.Paths.Set(base+"/{name}/status", &openapi3.PathItem{
			Parameters: named,
			Get:        op("read"+r.Kind+"Status", tag, "Read the status of a "+r.Singular+".", nil, obj),
			Put:        op("replace"+r.Kind+"Status", tag, "Replace the status of a "+r.Singular+".", obj, obj),
			Patch:      patchOp("patch"+r.Kind+"Status", tag, "Patch the status of a "+r.Singular+".", obj),
		})
	}
}

func (b *docBuilder) modelPaths(t *model.Type) {
	obj := b.ref(t)
	b.doc.Paths.Set("/models/"+t.Pkg.Name+"/"+t.Name, &openapi3.PathItem{
		Post: op("submit"+t.Name, t.Name, "Submit a "+t.Name+"; the response is the accepted value.", obj, obj),
	})
}

func pathParam(name string) *openapi3.ParameterRef {
	return &openapi3.ParameterRef{Value: openapi3.NewPathParameter(name).WithSchema(openapi3.NewStringSchema())}
}

func op(id, tag, summary string, req, resp *openapi3.SchemaRef) *openapi3.Operation {
	o := &openapi3.Operation{OperationID: id, Summary: summary, Tags: []string{tag}, Responses: openapi3.NewResponses()}
	o.Responses.Set("200", &openapi3.ResponseRef{Value: openapi3.NewResponse().WithDescription("OK").WithJSONSchemaRef(resp)})
	o.Responses.Delete("default")
	if req != nil {
		o.RequestBody = &openapi3.RequestBodyRef{Value: openapi3.NewRequestBody().WithRequired(true).WithJSONSchemaRef(req)}
	}
	return o
}

func patchOp(id, tag, summary string, obj *openapi3.SchemaRef) *openapi3.Operation {
	o := op(id, tag, summary, nil, obj)
	content := openapi3.Content{}
	for _, mt := range []string{"application/merge-patch+json", "application/json-patch+json", "application/apply-patch+yaml"} {
		content[mt] = openapi3.NewMediaType().WithSchemaRef(obj)
	}
	o.RequestBody = &openapi3.RequestBodyRef{Value: openapi3.NewRequestBody().WithRequired(true).WithContent(content)}
	return o
}

// SortedSchemaNames lists component names, for tests and summaries.
func SortedSchemaNames(doc *openapi3.T) []string {
	var out []string
	for n := range doc.Components.Schemas {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
