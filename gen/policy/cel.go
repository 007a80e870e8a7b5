package policy

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	crdmarkers "sigs.k8s.io/controller-tools/pkg/crd/markers"

	"github.com/modelgen/modelgen/model"
)

// Check is one generated validation: a row of the field table whose change
// the policy judges, the CEL predicate "the row changed" and the roles the
// tags let write it.
type Check struct {
	Row     int
	Path    string   // the table path ("spec.items[].price")
	Changed string   // CEL: variables.cur (the object) and variables.old differ on the row
	Static  []string // roles the tags let write the row (through its containers)
	Grants  []string // policy paths whose grant covers the row (itself, containers, contents)
	Within  []string // prefixes of the contents' paths when they stand for the contents in Grants
	Vars    []Var    // the policy variables Changed reads, each after those it reads
	Pos     model.Pos
}

// Var is a policy variable: one container of the object (old or current
// side) looked up once, so that every rule inside it reads it by name.
type Var struct {
	Name, Expr string
}

// Checks returns the validations of a type's field table, in table order:
// one per row the API server can see change (a leaf, or a pointer, list or
// map container whose shape changes). The tenant key is left to tenancy.
// s gives the bookkeeping metadata keys that are not governed.
func Checks(tr *model.TypeAccess, s Settings) []Check {
	var out []Check
	vs := &varSet{byKey: map[string]Var{}, taken: map[string]bool{}}
	for i, r := range tr.Table {
		if i == tr.Tenant || hidden(tr, i) {
			continue
		}
		b := &exprBuilder{tr: tr, s: s, vs: vs}
		changed := b.walk(chain(tr, i), 0, "variables.old", "variables.cur", true)
		if changed == "" {
			continue
		}
		g, within := grants(tr, i)
		out = append(out, Check{Row: i, Path: r.Path, Changed: changed, Static: tr.Effective(i, true), Grants: g, Within: within, Vars: b.used, Pos: r.Field.Field.Pos})
	}
	return out
}

// hidden reports a row JSON never shows (a field JSON skips, or one inside
// it) or one whose value the API server owns (TypeMeta).
func hidden(tr *model.TypeAccess, row int) bool {
	for i := row; i >= 0; i = tr.Table[i].Parent {
		f := tr.Table[i].Field.Field
		if f.Skip || isMeta(f.Type, "TypeMeta") || isMeta(f.Type, "ListMeta") {
			return true
		}
	}
	return false
}

const metaV1 = "k8s.io/apimachinery/pkg/apis/meta/v1"

func isMeta(t *model.TypeRef, name string) bool {
	t = t.Deref()
	return t != nil && t.ImportPath == metaV1 && t.TypeName == name
}

// chain lists the rows from the top of the table down to row.
func chain(tr *model.TypeAccess, row int) []int {
	var out []int
	for i := row; i >= 0; i = tr.Table[i].Parent {
		out = append(out, i)
	}
	slices.Reverse(out)
	return out
}

// grants lists the paths of a tenant policy that grant a row: its own, its
// containers' (a listed path grants everything inside), its contents'
// (a listed path grants the containers on the way as containers) and "*".
// The contents are given as the prefixes of their paths (within) when the
// prefixes name exactly the contents among the table's paths (an override
// naming a path the table lacks is refused by the Go guard as a whole).
func grants(tr *model.TypeAccess, row int) (paths, within []string) {
	paths = []string{"*"}
	for i := row; i >= 0; i = tr.Table[i].Parent {
		paths = append(paths, tr.Table[i].Path)
	}
	var contents []string
	for i := row + 1; i < row+tr.Table[row].Size; i++ {
		contents = append(contents, tr.Table[i].Path)
	}
	if len(contents) == 0 {
		return paths, nil
	}
	self := tr.Table[row].Path
	for _, c := range contents {
		p := ""
		for _, sep := range []string{".", "[]", "{}"} {
			if self != "" && strings.HasPrefix(c, self+sep) {
				p = self + sep
			}
		}
		if p == "" {
			return append(paths, contents...), nil
		}
		if !slices.Contains(within, p) {
			within = append(within, p)
		}
	}
	for i, r := range tr.Table {
		inside := i > row && i < row+tr.Table[row].Size
		if !inside && slices.ContainsFunc(within, func(p string) bool { return strings.HasPrefix(r.Path, p) }) {
			return append(paths, contents...), nil
		}
	}
	return paths, within
}

// exprBuilder renders the CEL of one row. Structs are CEL maps that are never
// null (an absent struct is {}), as Go's generated comparison sees a nil
// pointer or a missing element as the zero struct, and that hold no null
// field (norm drops them: Go decodes a null as the zero value), so that a
// field reads as v.?name.orValue(zero). A container outside any list or map
// is a policy variable (old_spec_items, cur_spec_items), looked up once for
// every rule that reads inside it.
type exprBuilder struct {
	tr   *model.TypeAccess
	s    Settings
	vs   *varSet
	used []Var
	n    int
}

// varSet names the variables of one policy: a container's variable is
// named after its path, made an identifier (old_spec_payer), and a name
// two paths would share gets the row's number.
type varSet struct {
	byKey map[string]Var
	taken map[string]bool
}

// variable returns the reference to the variable for key, made from expr
// the first time.
func (b *exprBuilder) variable(key, name, expr string) string {
	v, ok := b.vs.byKey[key]
	if !ok {
		for n := 2; b.vs.taken[name]; n++ {
			name = fmt.Sprintf("%s_%d", strings.TrimRight(name, "_0123456789"), n)
		}
		v = Var{Name: name, Expr: expr}
		b.vs.byKey[key] = v
		b.vs.taken[name] = true
	}
	if !slices.Contains(b.used, v) {
		b.used = append(b.used, v)
	}
	return "variables." + v.Name
}

// ident makes a row's path a CEL identifier part ("spec.items" -> spec_items).
func ident(path string) string {
	var sb strings.Builder
	for _, r := range path {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_':
			sb.WriteRune(r)
		default:
			sb.WriteRune('_')
		}
	}
	return sb.String()
}

func (b *exprBuilder) fresh(prefix string) string {
	b.n++
	return fmt.Sprintf("%s%d", prefix, b.n)
}

// walk descends from the struct values o (old) and c (current) along the
// chain; at its end it renders the row's own change. top says o and c are
// policy variables (no list or map on the way).
func (b *exprBuilder) walk(rows []int, k int, o, c string, top bool) string {
	row := rows[k]
	fr := b.tr.Table[row].Field
	last := k == len(rows)-1
	if fr.Inline() {
		if last {
			return "" // its fields are compared one by one
		}
		return b.walk(rows, k+1, o, c, top)
	}
	name := fr.Field.JSONName
	if last {
		if fr.Nested == nil {
			return b.leafChanged(row, fr, o, c, top)
		}
		return shapeChanged(fr, o, c)
	}
	s := fr.Shape
	path := ident(b.tr.Table[row].Path)
	// side gives the container's value on one side: a variable at the top,
	// else the expression itself (inside a comprehension).
	side := func(pre, v, expr string) string {
		if !top {
			return expr
		}
		return b.variable(pre+"|"+strconv.Itoa(row), pre+"_"+path, expr)
	}
	switch {
	case s.List:
		lo := side("old", o, normList(field(o, name, "[]")))
		lc := side("cur", c, normList(field(c, name, "[]")))
		longer := fmt.Sprintf("(size(%s) >= size(%s) ? %s : %s)", lo, lc, lo, lc)
		if top {
			longer = b.variable("longer|"+strconv.Itoa(row), "longer_"+path, longer)
		}
		i := b.fresh("i")
		inner := b.walk(rows, k+1, lo+"[?"+i+"].orValue({})", lc+"[?"+i+"].orValue({})", false)
		return fmt.Sprintf("%s.exists(%s, _, %s)", longer, i, inner)
	case s.Map:
		mo := side("old", o, normMap(field(o, name, "{}")))
		mc := side("cur", c, normMap(field(c, name, "{}")))
		key := b.fresh("k")
		inner := b.walk(rows, k+1, mo+"[?"+key+"].orValue({})", mc+"[?"+key+"].orValue({})", false)
		return fmt.Sprintf("%s.exists(%s, %s) || %s.exists(%s, %s)", mo, key, inner, mc, key, inner)
	}
	return b.walk(rows, k+1, side("old", o, norm(field(o, name, "{}"))), side("cur", c, norm(field(c, name, "{}"))), top)
}

// field is a field of a struct value (one without null fields), zero when
// absent: what Go compares an absent field as.
func field(v, name, zero string) string {
	return fmt.Sprintf("%s%s.orValue(%s)", v, optSelect(name), zero)
}

// optSelect selects a field optionally: .?name, or [?'name'] for a JSON
// name that is no CEL identifier.
func optSelect(name string) string {
	if isIdent(name) {
		return ".?" + name
	}
	return "[?" + quote(name) + "]"
}

var celReserved = map[string]bool{"true": true, "false": true, "null": true, "in": true, "as": true, "break": true, "const": true, "continue": true, "else": true, "for": true, "function": true, "if": true, "import": true, "let": true, "loop": true, "package": true, "namespace": true, "return": true, "var": true, "void": true, "while": true}

func isIdent(s string) bool {
	if s == "" || celReserved[s] || (s[0] >= '0' && s[0] <= '9') {
		return false
	}
	return ident(s) == s
}

// present holds when a struct value (one without null fields) has the field.
func present(v, name string) string {
	return fmt.Sprintf("%s in %s", quote(name), v)
}

// norm drops a struct value's null fields (Go reads a null as the zero
// value, as it reads an absent field).
func norm(v string) string {
	return v + ".transformMap(n, x, x != null, x)"
}

// normList makes the elements of a list of structs structs without null
// fields ({} for a null element).
func normList(v string) string {
	return v + ".map(e, e == null ? {} : " + norm("e") + ")"
}

// normMap does the same for the values of a map of structs.
func normMap(v string) string {
	return v + ".transformMap(n, e, e == null ? {} : " + norm("e") + ")"
}

// leafChanged compares a leaf as its JSON shows it. A scalar, an omitempty
// list or map compare absent as their zero value; a pointer, a list or map
// without omitempty compare absent (nil) apart from any value. ObjectMeta
// compares what its writers own: labels and annotations (the rest is the
// API server's, the garbage collector's or the controllers'), without the
// keys tools write for their bookkeeping: the governed labels and
// annotations are variables of their own at the top.
func (b *exprBuilder) leafChanged(row int, fr *model.FieldAccess, o, c string, top bool) string {
	name := fr.Field.JSONName
	if isMeta(fr.Field.Type, "ObjectMeta") {
		annotations := append([]string{LastApplied}, b.s.BookkeepingAnnotations...)
		path := ident(b.tr.Table[row].Path)
		governed := func(side, v, key string, keys []string) string {
			expr := governedOf(field(norm(field(v, name, "{}")), key, "{}"), keys)
			if !top {
				return expr
			}
			return b.variable(side+"|"+key+"|"+strconv.Itoa(row), side+"_"+path+"_"+key, expr)
		}
		return governed("old", o, "labels", b.s.BookkeepingLabels) + " != " + governed("cur", c, "labels", b.s.BookkeepingLabels) + " || " +
			governed("old", o, "annotations", annotations) + " != " + governed("cur", c, "annotations", annotations)
	}
	zero := zeroJSON(fr.Field)
	return notDefaulted(fr.Field, o, c, fmt.Sprintf("%s != %s", field(o, name, zero), field(c, name, zero)))
}

// governedOf is a string map without the given keys (a key ending in "/"
// or "*" is a prefix): the part of labels or annotations that is governed.
func governedOf(m string, keys []string) string {
	if len(keys) == 0 {
		return m
	}
	var exact, prefixes []string
	for _, k := range keys {
		switch {
		case strings.HasSuffix(k, "*"):
			prefixes = append(prefixes, strings.TrimSuffix(k, "*"))
		case strings.HasSuffix(k, "/"):
			prefixes = append(prefixes, k)
		default:
			exact = append(exact, k)
		}
	}
	var skip []string
	if len(exact) > 0 {
		skip = append(skip, "k in "+list(exact))
	}
	if len(prefixes) > 0 {
		skip = append(skip, list(prefixes)+".exists(p, k.startsWith(p))")
	}
	return fmt.Sprintf("%s.transformMap(k, v, !(%s), v)", m, strings.Join(skip, " || "))
}

// notDefaulted keeps the API server's defaulting out of a row's change: the
// server applies the schema's default (+kubebuilder:default, +default) to a
// field the request lacks before admission, so a field the old object (the
// empty one on CREATE) lacks that now holds its default is not the caller's
// write.
func notDefaulted(f *model.Field, o, c, changed string) string {
	d, ok := defaultOf(f)
	if !ok {
		return changed
	}
	return fmt.Sprintf("(%s) && !(!(%s) && %s && %s[%s] == %s)", changed, present(o, f.JSONName), present(c, f.JSONName), c, quote(f.JSONName), d)
}

// defaultOf is a field's schema default as a CEL literal, as the CRD
// writes it (controller-tools' Default and KubernetesDefault markers).
func defaultOf(f *model.Field) (string, bool) {
	var v any
	switch m := f.Markers.Get("kubebuilder:default").(type) {
	case crdmarkers.Default:
		v = m.Value
	default:
		k, ok := f.Markers.Get("default").(crdmarkers.KubernetesDefault)
		if !ok || k.Value == nil {
			return "", false
		}
		v = k.Value
	}
	data, err := json.Marshal(v)
	if err != nil {
		return "", false
	}
	if f.Type.Kind == model.KindSlice && string(data) == "{}" {
		data = []byte("[]") // as controller-tools writes an empty list default
	}
	var j any
	if err := json.Unmarshal(data, &j); err != nil {
		return "", false
	}
	return celLiteral(j), true
}

// celLiteral writes a JSON value as a CEL literal.
func celLiteral(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(x)
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return strconv.FormatInt(int64(x), 10)
		}
		return strconv.FormatFloat(x, 'g', -1, 64)
	case string:
		return quote(x)
	case []any:
		items := make([]string, len(x))
		for i, e := range x {
			items[i] = celLiteral(e)
		}
		return "[" + strings.Join(items, ", ") + "]"
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		items := make([]string, len(keys))
		for i, k := range keys {
			items[i] = quote(k) + ": " + celLiteral(x[k])
		}
		return "{" + strings.Join(items, ", ") + "}"
	}
	return "null"
}

func zeroJSON(f *model.Field) string {
	t := f.Type
	omit := f.OmitEmpty || f.OmitZero
	switch t.Kind {
	case model.KindString:
		return `""`
	case model.KindBool:
		return "false"
	case model.KindInt, model.KindFloat, model.KindDuration:
		return "0"
	case model.KindMetaDuration:
		return `"0s"`
	case model.KindQuantity:
		return `"0"`
	case model.KindIntOrString:
		return "0"
	case model.KindSlice:
		switch {
		case t.Len >= 0:
			return "null" // an array is always written
		case !omit:
			return "null"
		case t.Elem != nil && t.Elem.Kind == model.KindInt && t.Elem.Unsigned && t.Elem.Bits == 8:
			return `""` // []byte is base64 text
		}
		return "[]"
	case model.KindMap:
		if !omit {
			return "null"
		}
		return "{}"
	}
	return "null"
}

// shapeChanged is a container's own change: a pointer that turns nil or
// back, a list whose length changes, a map whose keys change, an element of
// pointers that turns null or back, and for a list or map without omitempty
// null versus empty.
func shapeChanged(fr *model.FieldAccess, o, c string) string {
	name := fr.Field.JSONName
	s := fr.Shape
	var parts []string
	nilShows := !fr.Field.OmitEmpty && !fr.Field.OmitZero && s.Repeated() && s.Len < 0
	if s.Ptr || nilShows {
		parts = append(parts, fmt.Sprintf("(%s) != (%s)", present(o, name), present(c, name)))
	}
	switch {
	case s.List && s.Len >= 0:
		// an array always has its length
	case s.List:
		lo, lc := field(o, name, "[]"), field(c, name, "[]")
		parts = append(parts, fmt.Sprintf("size(%s) != size(%s)", lo, lc))
		if s.ElemPtr {
			parts = append(parts, ptrFlip(lo, lc))
		}
	case s.Map:
		mo, mc := field(o, name, "{}"), field(c, name, "{}")
		parts = append(parts, fmt.Sprintf("size(%s) != size(%s) || %s.exists(k, !(k in %s))", mo, mc, mo, mc))
		if s.ElemPtr {
			parts = append(parts, fmt.Sprintf("%s.exists(k, k in %s && (%s[k] == null) != (%s[k] == null))", mo, mc, mo, mc))
		}
	}
	if s.List && s.Len >= 0 && s.ElemPtr {
		lo, lc := field(o, name, "[]"), field(c, name, "[]")
		parts = append(parts, ptrFlip(lo, lc))
	}
	if len(parts) == 0 {
		return ""
	}
	return notDefaulted(fr.Field, o, c, strings.Join(parts, " || "))
}

// quote writes a CEL string literal.
func quote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\r", `\r`)
	return `"` + r.Replace(s) + `"`
}

// list writes a CEL list of string literals.
func list(items []string) string {
	q := make([]string, len(items))
	for i, s := range items {
		q[i] = quote(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// ptrFlip holds when an element of two lists of pointers turns null or back.
func ptrFlip(lo, lc string) string {
	return fmt.Sprintf("%s.exists(i, e, i < size(%s) && (e == null) != (%s[i] == null))", lo, lc, lc)
}
