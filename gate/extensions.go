package gate

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/modelgen/modelgen/openapi/ext"
)

// The schema extensions the generator writes on property schemas; their
// format is declared once, in package openapi/ext.
const (
	ExtensionStateMachine = ext.StateMachineName
	ExtensionAccess       = ext.AccessName
)

// facts is what the modelgen extensions of one schema (or of the siblings
// of one $ref) say.
type facts struct {
	machine *ext.StateMachine
	access  *ext.Access
	kube    *kubeFacts
}

// extensions holds the decoded extensions of one document, by the schema
// (or the $ref) that carries them, and the document's component names.
type extensions struct {
	doc        *openapi3.T
	ofSchema   map[*openapi3.Schema]facts
	ofRef      map[*openapi3.SchemaRef]facts // extensions written beside a $ref
	components map[*openapi3.Schema]string   // component schema -> its name
	schemas    int                           // schemas seen, for the comparison's bound
	depth      int                           // the longest chain of nested schemas
}

// collectExtensions decodes every modelgen extension of the document, on
// every schema reachable from its paths and components, once per schema. A
// malformed extension is an error naming its JSON pointer: the gate fails
// closed rather than compare a contract it cannot read.
func collectExtensions(doc *openapi3.T) (*extensions, error) {
	c := collector{ext: &extensions{
		doc:        doc,
		ofSchema:   map[*openapi3.Schema]facts{},
		ofRef:      map[*openapi3.SchemaRef]facts{},
		components: map[*openapi3.Schema]string{},
	}, height: map[*openapi3.Schema]int{}}
	if doc.Components != nil {
		for _, name := range sortedKeys(doc.Components.Schemas) {
			if ref := doc.Components.Schemas[name]; ref != nil && ref.Value != nil && ref.Ref == "" {
				if _, taken := c.ext.components[ref.Value]; !taken {
					c.ext.components[ref.Value] = name
				}
			}
		}
		for _, name := range sortedKeys(doc.Components.Schemas) {
			c.schemaRef(doc.Components.Schemas[name], &trail{text: "#/components/schemas/" + jsonPointerEscape(name)})
		}
	}
	forEachBody(doc, func(op operation, pointer string, media *openapi3.MediaType) {
		c.schemaRef(media.Schema, &trail{text: pointer + "/schema"})
	})
	return c.ext, errors.Join(c.errs...)
}

type collector struct {
	ext    *extensions
	height map[*openapi3.Schema]int
	errs   []error
}

// schemaRef decodes the extensions of a schema and of everything under it,
// once per schema, and returns the height of the schema: the longest chain
// of nested schemas from it, through $refs (a cycle counts once).
func (c *collector) schemaRef(ref *openapi3.SchemaRef, pointer *trail) int {
	if ref == nil {
		return 0
	}
	if ref.Ref != "" && len(ref.Extensions) > 0 {
		if f, ok := c.decode(ref.Extensions, pointer); ok {
			c.ext.ofRef[ref] = f
		}
	}
	s := ref.Value
	if s == nil {
		return 0
	}
	if h, ok := c.height[s]; ok {
		return h // known, or 0 while s is being walked: a cycle
	}
	c.height[s] = 0
	c.ext.schemas++
	if f, ok := c.decode(s.Extensions, pointer); ok {
		c.ext.ofSchema[s] = f
	}
	h := 0
	for _, name := range sortedKeys(s.Properties) {
		h = max(h, c.schemaRef(s.Properties[name], pointer.add("/properties/", name)))
	}
	h = max(h, c.schemaRef(s.Items, pointer.add("/items", "")))
	h = max(h, c.schemaRef(s.AdditionalProperties.Schema, pointer.add("/additionalProperties", "")))
	h = max(h, c.schemaRef(s.Not, pointer.add("/not", "")))
	for keyword, refs := range combinators(s) {
		for i, r := range refs {
			h = max(h, c.schemaRef(r, pointer.add("/"+keyword+"/", strconv.Itoa(i))))
		}
	}
	c.height[s] = h + 1
	c.ext.depth = max(c.ext.depth, h+1)
	return h + 1
}

// combinators lists allOf, anyOf and oneOf, in that order.
func combinators(s *openapi3.Schema) func(yield func(string, openapi3.SchemaRefs) bool) {
	return func(yield func(string, openapi3.SchemaRefs) bool) {
		_ = yield("allOf", s.AllOf) && yield("anyOf", s.AnyOf) && yield("oneOf", s.OneOf)
	}
}

// decode reads the modelgen extensions of one schema, keeping a positioned
// error for each one that is malformed.
func (c *collector) decode(extensions map[string]any, pointer *trail) (facts, bool) {
	var f facts
	if raw, ok := extensions[ext.StateMachineName]; ok {
		m, err := ext.DecodeStateMachine(raw)
		c.fail(pointer, ext.StateMachineName, err)
		if err == nil {
			f.machine = &m
		}
	}
	if raw, ok := extensions[ext.AccessName]; ok {
		a, err := ext.DecodeAccess(raw)
		c.fail(pointer, ext.AccessName, err)
		if err == nil {
			f.access = &a
		}
	}
	k, err := decodeKube(extensions)
	if err != nil {
		c.errs = append(c.errs, fmt.Errorf("%s: %w", pointer, err))
	}
	f.kube = k
	return f, f.machine != nil || f.access != nil || f.kube != nil
}

func (c *collector) fail(pointer *trail, extension string, err error) {
	if err != nil {
		c.errs = append(c.errs, fmt.Errorf("%s: %s: %w", pointer, extension, err))
	}
}

// operation is one method of one path.
type operation struct {
	method, path string
	op           *openapi3.Operation
}

// operations lists the document's operations, by path and then by method.
func operations(doc *openapi3.T) []operation {
	var ops []operation
	if doc.Paths == nil {
		return nil
	}
	paths := doc.Paths.Map()
	for _, path := range sortedKeys(paths) {
		item := paths[path]
		if item == nil {
			continue
		}
		for _, method := range sortedKeys(item.Operations()) {
			ops = append(ops, operation{method: method, path: path, op: item.Operations()[method]})
		}
	}
	return ops
}

// forEachBody calls f on every media type of every request and response
// body, with its JSON pointer.
func forEachBody(doc *openapi3.T, f func(op operation, pointer string, media *openapi3.MediaType)) {
	for _, op := range operations(doc) {
		base := "#/paths/" + jsonPointerEscape(op.path) + "/" + strings.ToLower(op.method)
		if body := op.op.RequestBody; body != nil && body.Value != nil {
			for _, mt := range sortedKeys(body.Value.Content) {
				f(op, base+"/requestBody/content/"+jsonPointerEscape(mt), body.Value.Content[mt])
			}
		}
		if op.op.Responses == nil {
			continue
		}
		responses := op.op.Responses.Map()
		for _, code := range sortedKeys(responses) {
			if r := responses[code]; r != nil && r.Value != nil {
				for _, mt := range sortedKeys(r.Value.Content) {
					f(op, base+"/responses/"+jsonPointerEscape(code)+"/content/"+jsonPointerEscape(mt), r.Value.Content[mt])
				}
			}
		}
	}
}

// trail is a path built one segment at a time and written out only when a
// message needs it: building every path as a string would cost memory
// quadratic in the depth of the schemas.
type trail struct {
	parent *trail
	text   string // a prefix (the root), or a separator and a name
	name   string // escaped as a JSON pointer token when the trail is
}

func (t *trail) add(sep, name string) *trail { return &trail{parent: t, text: sep, name: name} }

func (t *trail) String() string {
	var parts []string
	for ; t != nil; t = t.parent {
		parts = append(parts, t.text+jsonPointerEscape(t.name))
	}
	slices.Reverse(parts)
	return strings.Join(parts, "")
}

var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

func jsonPointerEscape(s string) string { return pointerEscaper.Replace(s) }

func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
