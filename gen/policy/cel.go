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
	Pos     model.Pos
}

// Checks returns the validations of a type's field table, in table order:
// one per row the API server can see change (a leaf, or a pointer, list or
// map container whose shape changes). The tenant key is left to tenancy.
// s gives the bookkeeping metadata keys that are not governed.
func Checks(tr *model.TypeAccess, s Settings) []Check {
	var out []Check
	for i, r := range tr.Table {
		if i == tr.Tenant || hidden(tr, i) {
			continue
		}
		b := &exprBuilder{tr: tr, s: s}
		changed := b.walk(chain(tr, i), 0, "variables.old", "variables.cur")
		if changed == "" {
			continue
		}
		out = append(out, Check{Row: i, Path: r.Path, Changed: changed, Static: tr.Effective(i, true), Grants: grants(tr, i), Pos: r.Field.Field.Pos})
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
func grants(tr *model.TypeAccess, row int) []string {
	out := []string{"*"}
	for i := row; i >= 0; i = tr.Table[i].Parent {
		out = append(out, tr.Table[i].Path)
	}
	for i := row + 1; i < row+tr.Table[row].Size; i++ {
		out = append(out, tr.Table[i].Path)
	}
	return out
}

// exprBuilder renders the CEL of one row. Structs are CEL maps that are never
// null (an absent struct is {}), as Go's generated comparison sees a nil
// pointer or a missing element as the zero struct.
type exprBuilder struct {
	tr *model.TypeAccess
	s  Settings
	n  int
}

func (b *exprBuilder) fresh(prefix string) string {
	b.n++
	return fmt.Sprintf("%s%d", prefix, b.n)
}

// walk descends from the struct values o (old) and c (current) along the
// chain; at its end it renders the row's own change.
func (b *exprBuilder) walk(rows []int, k int, o, c string) string {
	fr := b.tr.Table[rows[k]].Field
	last := k == len(rows)-1
	if fr.Inline() {
		if last {
			return "" // its fields are compared one by one
		}
		return b.walk(rows, k+1, o, c)
	}
	name := fr.Field.JSONName
	if last {
		if fr.Nested == nil {
			return b.leafChanged(fr, o, c)
		}
		return shapeChanged(fr, o, c)
	}
	s := fr.Shape
	switch {
	case s.List:
		lo, lc, i, v := orEmpty(o, name, "[]"), orEmpty(c, name, "[]"), b.fresh("i"), b.fresh("v")
		inner := b.walk(rows, k+1, elem(lo, i), elem(lc, i))
		return fmt.Sprintf("(size(%s) >= size(%s) ? %s : %s).exists(%s, %s, %s)", lo, lc, lo, lc, i, v, inner)
	case s.Map:
		mo, mc, key := orEmpty(o, name, "{}"), orEmpty(c, name, "{}"), b.fresh("k")
		inner := b.walk(rows, k+1, entry(mo, key), entry(mc, key))
		return fmt.Sprintf("%s.exists(%s, %s) || %s.exists(%s, %s)", mo, key, inner, mc, key, inner)
	}
	return b.walk(rows, k+1, orEmpty(o, name, "{}"), orEmpty(c, name, "{}"))
}

// present holds when a struct value has the field, not null.
func present(v, name string) string {
	return fmt.Sprintf("(%s in %s && %s[%s] != null)", quote(name), v, v, quote(name))
}

// orEmpty is the field's value, else zero (what Go compares an absent
// field as).
func orEmpty(v, name, zero string) string {
	return fmt.Sprintf("(%s ? %s[%s] : %s)", present(v, name), v, quote(name), zero)
}

func elem(list, i string) string {
	return fmt.Sprintf("(%s < size(%s) && %s[%s] != null ? %s[%s] : {})", i, list, list, i, list, i)
}

func entry(m, k string) string {
	return fmt.Sprintf("(%s in %s && %s[%s] != null ? %s[%s] : {})", k, m, m, k, m, k)
}

// leafChanged compares a leaf as its JSON shows it. A scalar, an omitempty
// list or map compare absent as their zero value; a pointer, a list or map
// without omitempty compare absent (nil) apart from any value. ObjectMeta
// compares what its writers own: labels and annotations (the rest is the
// API server's, the garbage collector's or the controllers'), without the
// keys tools write for their bookkeeping.
func (b *exprBuilder) leafChanged(fr *model.FieldAccess, o, c string) string {
	name := fr.Field.JSONName
	if isMeta(fr.Field.Type, "ObjectMeta") {
		mo, mc := orEmpty(o, name, "{}"), orEmpty(c, name, "{}")
		annotations := append([]string{LastApplied}, b.s.BookkeepingAnnotations...)
		return mapChangedBut(orEmpty(mo, "labels", "{}"), orEmpty(mc, "labels", "{}"), b.s.BookkeepingLabels) + " || " +
			mapChangedBut(orEmpty(mo, "annotations", "{}"), orEmpty(mc, "annotations", "{}"), annotations)
	}
	zero := zeroJSON(fr.Field)
	return notDefaulted(fr.Field, o, c, fmt.Sprintf("%s != %s", orEmpty(o, name, zero), orEmpty(c, name, zero)))
}

// mapChangedBut holds when two string maps differ on a key other than the
// given keys (a key ending in "/" or "*" is a prefix).
func mapChangedBut(mo, mc string, keys []string) string {
	if len(keys) == 0 {
		return fmt.Sprintf("%s != %s", mo, mc)
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
	governed := "!(" + strings.Join(skip, " || ") + ")"
	return fmt.Sprintf("%s.exists(k, %s && (!(k in %s) || %s[k] != %s[k])) || %s.exists(k, %s && !(k in %s))", mo, governed, mc, mc, mo, mc, governed, mo)
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
	name := quote(f.JSONName)
	return fmt.Sprintf("(%s) && !(!%s && %s && %s[%s] == %s)", changed, present(o, f.JSONName), present(c, f.JSONName), c, name, d)
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
		return "''"
	case model.KindBool:
		return "false"
	case model.KindInt, model.KindFloat, model.KindDuration:
		return "0"
	case model.KindMetaDuration:
		return "'0s'"
	case model.KindQuantity:
		return "'0'"
	case model.KindIntOrString:
		return "0"
	case model.KindSlice:
		switch {
		case t.Len >= 0:
			return "null" // an array is always written
		case !omit:
			return "null"
		case t.Elem != nil && t.Elem.Kind == model.KindInt && t.Elem.Unsigned && t.Elem.Bits == 8:
			return "''" // []byte is base64 text
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
		parts = append(parts, fmt.Sprintf("%s != %s", present(o, name), present(c, name)))
	}
	switch {
	case s.List && s.Len >= 0:
		// an array always has its length
	case s.List:
		lo, lc := orEmpty(o, name, "[]"), orEmpty(c, name, "[]")
		parts = append(parts, fmt.Sprintf("size(%s) != size(%s)", lo, lc))
		if s.ElemPtr {
			parts = append(parts, ptrFlip(lo, lc))
		}
	case s.Map:
		mo, mc := orEmpty(o, name, "{}"), orEmpty(c, name, "{}")
		parts = append(parts, fmt.Sprintf("size(%s) != size(%s) || %s.exists(k, !(k in %s))", mo, mc, mo, mc))
		if s.ElemPtr {
			parts = append(parts, fmt.Sprintf("%s.exists(k, k in %s && (%s[k] == null) != (%s[k] == null))", mo, mc, mo, mc))
		}
	}
	if s.List && s.Len >= 0 && s.ElemPtr {
		lo, lc := orEmpty(o, name, "[]"), orEmpty(c, name, "[]")
		parts = append(parts, ptrFlip(lo, lc))
	}
	if len(parts) == 0 {
		return ""
	}
	return notDefaulted(fr.Field, o, c, strings.Join(parts, " || "))
}

// quote writes a CEL string literal.
func quote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\n", `\n`, "\r", `\r`)
	return "'" + r.Replace(s) + "'"
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
