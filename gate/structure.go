package gate

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// place is a position in the contract, independent of component names: an
// operation's request or response body and the JSON path inside it
// ("POST /apis/.../paymentorders response 200 → .status.phase").
type place struct {
	body string // "POST /things request", "GET /things response 200", or "components.schemas.X"
	path *step  // ".status.phase", ".spec.lines[].state", ".labels{}"; nil for the body itself
}

// step is one segment of a place's JSON path, linked to the one before, so
// that a deep walk does not build a string per level.
type step struct {
	parent  *step
	segment string
}

func (p place) String() string {
	if p.path == nil {
		return p.body
	}
	var parts []string
	for s := p.path; s != nil; s = s.parent {
		parts = append(parts, s.segment)
	}
	slices.Reverse(parts)
	return p.body + " → " + strings.Join(parts, "")
}

func (p place) child(segment string) place { return place{p.body, &step{p.path, segment}} }

// node is what describes one JSON value at one place: a schema and,
// flattened in, its allOf members (each of which holds of the same value),
// with the $refs met on the way that carry extensions beside them.
type node struct {
	schemas []*openapi3.Schema
	refs    []*openapi3.SchemaRef
}

// expand builds the node of the given schemas (all describing one value).
func (x *extensions) expand(refs ...*openapi3.SchemaRef) node {
	var n node
	seen := map[*openapi3.Schema]bool{}
	var add func(r *openapi3.SchemaRef)
	add = func(r *openapi3.SchemaRef) {
		if r == nil || r.Value == nil {
			return
		}
		if _, ok := x.ofRef[r]; ok {
			n.refs = append(n.refs, r)
		}
		if seen[r.Value] {
			return
		}
		seen[r.Value] = true
		n.schemas = append(n.schemas, r.Value)
		for _, m := range r.Value.AllOf {
			add(m)
		}
	}
	for _, r := range refs {
		add(r)
	}
	return n
}

// names lists the components the node's schemas are, in order.
func (x *extensions) names(n node) []string {
	var names []string
	for _, s := range n.schemas {
		if name, ok := x.components[s]; ok {
			names = append(names, name)
		}
	}
	return names
}

// facts merges what the node's schemas and $refs say; two different values
// of one extension at one place are an error: the gate cannot know which one
// the generator meant.
func (x *extensions) facts(n node, at place) (facts, error) {
	var all []facts
	for _, s := range n.schemas {
		if f, ok := x.ofSchema[s]; ok {
			all = append(all, f)
		}
	}
	for _, r := range n.refs {
		all = append(all, x.ofRef[r])
	}
	var out facts
	for _, f := range all {
		if f.machine != nil {
			if out.machine != nil && !equalJSON(out.machine, f.machine) {
				return facts{}, fmt.Errorf("%s: conflicting values of %s", at, ExtensionStateMachine)
			}
			out.machine = f.machine
		}
		if f.access != nil {
			if out.access != nil && !equalJSON(out.access, f.access) {
				return facts{}, fmt.Errorf("%s: conflicting values of %s", at, ExtensionAccess)
			}
			out.access = f.access
		}
		kube, err := mergeKube(out.kube, f.kube, at)
		if err != nil {
			return facts{}, err
		}
		out.kube = kube
	}
	return out, nil
}

// children of a node: the schemas of one property, of the items, of the
// additional properties, merged over the node's schemas.
func property(n node, name string) []*openapi3.SchemaRef {
	var refs []*openapi3.SchemaRef
	for _, s := range n.schemas {
		if r := s.Properties[name]; r != nil {
			refs = append(refs, r)
		}
	}
	return refs
}

func propertyNames(b, r node) []string {
	set := map[string]bool{}
	for _, n := range []node{b, r} {
		for _, s := range n.schemas {
			for name := range s.Properties {
				set[name] = true
			}
		}
	}
	return sortedKeys(set)
}

func items(n node) []*openapi3.SchemaRef {
	var refs []*openapi3.SchemaRef
	for _, s := range n.schemas {
		if s.Items != nil {
			refs = append(refs, s.Items)
		}
	}
	return refs
}

func additional(n node) []*openapi3.SchemaRef {
	var refs []*openapi3.SchemaRef
	for _, s := range n.schemas {
		if s.AdditionalProperties.Schema != nil {
			refs = append(refs, s.AdditionalProperties.Schema)
		}
	}
	return refs
}

// alternatives lists the anyOf (or oneOf) members of the node's schemas.
func alternatives(n node, oneOf bool) []*openapi3.SchemaRef {
	var refs []*openapi3.SchemaRef
	for _, s := range n.schemas {
		if oneOf {
			refs = append(refs, s.OneOf...)
		} else {
			refs = append(refs, s.AnyOf...)
		}
	}
	return refs
}

// comparer walks the two documents side by side, from the same operation
// bodies, and compares the extensions found at the same places. Each pair of
// nodes is compared once (which guards against $ref cycles and reports a
// change reached from many operations once, at the first place the walk
// meets it), and the number of pairs is bounded.
type comparer struct {
	base, rev  *extensions
	done       map[string]bool
	ids        map[any]int
	budget     int
	reached    map[*openapi3.Schema]bool // base and revision schemas compared
	renames    map[[2]string]bool
	renameList []rename
	changes    []Change
	errs       []error
	overBudget bool
}

// maxPairsPerSchema bounds the comparison: a contract pairs each schema with
// about one other, so a few per schema is generous, and two documents built
// to pair every schema with every other are refused instead of compared.
const maxPairsPerSchema = 8

// compareStructure compares the extensions of the two documents place by
// place and finds the renamed components. It returns the changes and, for
// the one-to-one renames, the old name of each new one.
func compareStructure(base, rev *extensions) ([]Change, map[string]string, error) {
	c := &comparer{
		base: base, rev: rev,
		done: map[string]bool{}, ids: map[any]int{},
		budget:  maxPairsPerSchema*(base.schemas+rev.schemas) + 10_000,
		reached: map[*openapi3.Schema]bool{}, renames: map[[2]string]bool{},
	}
	revBodies := map[string]*openapi3.MediaType{}
	forEachBody(rev.doc, func(_ operation, pointer string, media *openapi3.MediaType) { revBodies[pointer] = media })
	forEachBody(base.doc, func(op operation, pointer string, media *openapi3.MediaType) {
		cur := revBodies[pointer]
		if cur == nil {
			return // oasdiff reports the removed operation, body or media type
		}
		c.compare(base.expand(media.Schema), rev.expand(cur.Schema), place{body: bodyName(op, pointer)})
	})
	c.unreachedComponents()
	if c.overBudget {
		return nil, nil, &InputError{fmt.Errorf("the documents are too intricate to compare structurally: more than %d pairs of schemas", maxPairsPerSchema*(base.schemas+rev.schemas)+10_000)}
	}
	if err := joinErrs(c.errs); err != nil {
		return nil, nil, err
	}
	return c.changes, c.reportRenames(), nil
}

// bodyName names a body for people: "POST /things request", "GET /things
// response 200". The media type is left out: the bodies of one operation
// share their schemas, and the first one met is where a change is shown.
func bodyName(op operation, pointer string) string {
	name := op.method + " " + op.path
	if _, rest, ok := strings.Cut(pointer, "/responses/"); ok {
		code, _, _ := strings.Cut(rest, "/")
		return name + " response " + strings.NewReplacer("~1", "/", "~0", "~").Replace(code)
	}
	return name + " request"
}

func (c *comparer) compare(b, r node, at place) {
	if len(b.schemas) == 0 || len(r.schemas) == 0 || c.overBudget {
		return
	}
	key := c.key(b) + "|" + c.key(r)
	if c.done[key] {
		return
	}
	c.done[key] = true
	if c.budget--; c.budget < 0 {
		c.overBudget = true
		return
	}
	for _, s := range slices.Concat(b.schemas, r.schemas) {
		c.reached[s] = true
	}
	c.renamed(b, r, at)
	old, errB := c.base.facts(b, at)
	cur, errR := c.rev.facts(r, at)
	if errB != nil || errR != nil {
		c.errs = append(c.errs, errB, errR)
	} else {
		old.kube, cur.kube = c.base.withoutMachineRules(b, old.kube, at), c.rev.withoutMachineRules(r, cur.kube, at)
		c.changes = append(c.changes, diffFacts(at, old, cur)...)
	}
	for _, name := range propertyNames(b, r) {
		c.compare(c.base.expand(property(b, name)...), c.rev.expand(property(r, name)...), at.child("."+name))
	}
	c.compare(c.base.expand(items(b)...), c.rev.expand(items(r)...), at.child("[]"))
	c.compare(c.base.expand(additional(b)...), c.rev.expand(additional(r)...), at.child("{}"))
	for _, oneOf := range []bool{false, true} {
		bs, rs := alternatives(b, oneOf), alternatives(r, oneOf)
		for i := range min(len(bs), len(rs)) {
			c.compare(c.base.expand(bs[i]), c.rev.expand(rs[i]), at)
		}
	}
}

// key identifies a node by its schemas and $refs, for the pair memo.
func (c *comparer) key(n node) string {
	var b strings.Builder
	for _, s := range n.schemas {
		b.WriteString(strconv.Itoa(c.id(s)))
		b.WriteByte(',')
	}
	for _, r := range n.refs {
		b.WriteString(strconv.Itoa(c.id(r)))
		b.WriteByte(';')
	}
	return b.String()
}

func (c *comparer) id(p any) int {
	if id, ok := c.ids[p]; ok {
		return id
	}
	id := len(c.ids)
	c.ids[p] = id
	return id
}

// renamed reports a component that the same place reaches under another
// name, when the old name is gone from the revision and the new one was not
// in the base. What changed inside it is judged by the walk, as if the name
// had stayed.
func (c *comparer) renamed(b, r node, at place) {
	oldNames, newNames := c.base.names(b), c.rev.names(r)
	var gone, came []string
	for _, n := range oldNames {
		if !slices.Contains(newNames, n) {
			gone = append(gone, n)
		}
	}
	for _, n := range newNames {
		if !slices.Contains(oldNames, n) {
			came = append(came, n)
		}
	}
	if len(gone) != 1 || len(came) != 1 {
		return
	}
	from, to := gone[0], came[0]
	if c.renames[[2]string{from, to}] || hasComponent(c.rev.doc, from) || hasComponent(c.base.doc, to) {
		return
	}
	c.renames[[2]string{from, to}] = true
	c.renameList = append(c.renameList, rename{from, to, at})
}

type rename struct {
	from, to string
	at       place
}

// reportRenames reports each rename once, at the first place it was met,
// saying whether the component's shape changed, with every rename of the
// run applied to the references inside it.
func (c *comparer) reportRenames() (oldNames map[string]string) {
	oldNames = map[string]string{}
	refs := map[string]string{}
	froms, tos := map[string]int{}, map[string]int{}
	for _, r := range c.renameList {
		refs["#/components/schemas/"+jsonPointerEscape(r.from)] = "#/components/schemas/" + jsonPointerEscape(r.to)
		froms[r.from]++
		tos[r.to]++
	}
	for i, r := range c.renameList {
		shape := "its shape is unchanged"
		if i >= maxShapeComparisons {
			shape = "its shape was not compared"
		} else if !sameShape(c.base.doc.Components.Schemas[r.from].Value, c.rev.doc.Components.Schemas[r.to].Value, refs) {
			shape = "its shape changed too (see the other changes at this place)"
		}
		// A one-to-one rename is undone for oasdiff; a component split in
		// two (or two merged) is left to oasdiff as it is.
		if froms[r.from] == 1 && tos[r.to] == 1 {
			oldNames[r.to] = r.from
		}
		c.changes = append(c.changes, newChange(RuleComponentRenamed, r.at, code(r.from), code(r.to), shape))
	}
	return oldNames
}

// adoptNames gives the revision's renamed components their base names back
// (the component and every $ref to it), so that oasdiff, which matches
// components and allOf members by name, judges what changed inside a renamed
// component as if the name had stayed, and nothing when only the name
// changed. The gate has reported the rename.
func adoptNames(doc *openapi3.T, oldName map[string]string) {
	if len(oldName) == 0 || doc.Components == nil {
		return
	}
	refs := map[string]string{}
	for to, from := range oldName {
		refs["#/components/schemas/"+jsonPointerEscape(to)] = "#/components/schemas/" + jsonPointerEscape(from)
	}
	seen := map[*openapi3.Schema]bool{}
	var visit func(r *openapi3.SchemaRef)
	visit = func(r *openapi3.SchemaRef) {
		if r == nil {
			return
		}
		if from, ok := refs[r.Ref]; ok {
			r.Ref = from
		}
		if r.Value == nil || seen[r.Value] {
			return
		}
		s := r.Value
		seen[s] = true
		for _, p := range s.Properties {
			visit(p)
		}
		visit(s.Items)
		visit(s.AdditionalProperties.Schema)
		visit(s.Not)
		for _, list := range []openapi3.SchemaRefs{s.AllOf, s.AnyOf, s.OneOf} {
			for _, m := range list {
				visit(m)
			}
		}
	}
	for _, r := range doc.Components.Schemas {
		visit(r)
	}
	forEachBody(doc, func(_ operation, _ string, media *openapi3.MediaType) { visit(media.Schema) })
	for _, op := range operations(doc) {
		for _, p := range op.op.Parameters {
			if p != nil && p.Value != nil {
				visit(p.Value.Schema)
			}
		}
	}
	for to, from := range oldName {
		doc.Components.Schemas[from] = doc.Components.Schemas[to]
		delete(doc.Components.Schemas, to)
	}
}

// maxShapeComparisons bounds the work spent describing renames.
const maxShapeComparisons = 1000

func hasComponent(doc *openapi3.T, name string) bool {
	return doc.Components != nil && doc.Components.Schemas[name] != nil
}

// sameShape reports whether two component schemas describe the same JSON,
// ignoring descriptions and extensions (the extensions are judged place by
// place) and the rename itself.
func sameShape(a, b *openapi3.Schema, renamed map[string]string) bool {
	x, y := shapeOf(a), shapeOf(b)
	renameRefs(x, renamed)
	return x != nil && reflect.DeepEqual(x, y)
}

func shapeOf(s *openapi3.Schema) any {
	data, err := json.Marshal(s)
	if err != nil {
		return nil
	}
	var v any
	if json.Unmarshal(data, &v) != nil {
		return nil
	}
	stripDocs(v)
	return v
}

func stripDocs(v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			if k == "description" || strings.HasPrefix(k, "x-") {
				delete(x, k)
				continue
			}
			stripDocs(val)
		}
	case []any:
		for _, val := range x {
			stripDocs(val)
		}
	}
}

func renameRefs(v any, renamed map[string]string) {
	switch x := v.(type) {
	case map[string]any:
		for k, val := range x {
			if s, ok := val.(string); ok && k == "$ref" && renamed[s] != "" {
				x[k] = renamed[s]
				continue
			}
			renameRefs(val, renamed)
		}
	case []any:
		for _, val := range x {
			renameRefs(val, renamed)
		}
	}
}

// unreachedComponents compares, by name, the components that no operation
// reaches in either document, so their extensions are judged too.
func (c *comparer) unreachedComponents() {
	if c.base.doc.Components == nil || c.rev.doc.Components == nil {
		return
	}
	for _, name := range sortedKeys(c.base.doc.Components.Schemas) {
		b, r := c.base.doc.Components.Schemas[name], c.rev.doc.Components.Schemas[name]
		if b == nil || r == nil || b.Value == nil || r.Value == nil || c.reached[b.Value] || c.reached[r.Value] {
			continue
		}
		c.compare(c.base.expand(b), c.rev.expand(r), place{body: "components.schemas." + name})
	}
}

func joinErrs(errs []error) error {
	var out []error
	for _, err := range errs {
		if err != nil {
			out = append(out, err)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return &InputError{errors.Join(out...)}
}
