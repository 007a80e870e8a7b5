package agree

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/modelgen/modelgen/model"
)

// Case is one boundary document for one constrained field.
type Case struct {
	// Type is the Go type under test (pkg.Type).
	Type string
	// Field is the JSON path of the probed field ("spec.name").
	Field string
	// Tag is the field's validate tag.
	Tag string
	// Probe says what the document tries ("min=3 -1 (é)", "absent", ...).
	Probe string
	// Doc is the whole JSON document.
	Doc []byte
	// Path is the API server path that creates the document (POST), in
	// namespace "default"; empty for a type without a CRD.
	Path string

	subject *subject
	target  *target
}

// Cases returns every boundary document of every type under test.
func (h *Harness) Cases() []Case {
	var out []Case
	for _, s := range h.subjects {
		out = append(out, Case{Type: s.name, Field: "(base)", Probe: "base document", Doc: encode(s.base), Path: s.path, subject: s})
		for _, tg := range s.targets {
			out = append(out, h.targetCases(s, tg)...)
		}
		for _, tg := range s.structs {
			out = append(out, h.structCases(s, tg)...)
		}
	}
	return out
}

// structCases try a struct-valued field without a validate tag absent and
// as the empty object: validator validates the zero struct either way.
func (h *Harness) structCases(s *subject, tg *target) []Case {
	base := h.contextBase(s, tg)
	var out []Case
	for _, p := range []probe{{absent: true, note: "absent"}, {value: map[string]any{}, note: "empty object"}} {
		doc := deepCopy(base).(document)
		set(doc, tg.path, p.value, p.absent, emptyObject)
		out = append(out, Case{Type: s.name, Field: tg.String(), Probe: p.note, Doc: encode(doc), Path: s.path, subject: s, target: tg})
	}
	return out
}

func (h *Harness) targetCases(s *subject, tg *target) []Case {
	base := h.contextBase(s, tg)
	var out []Case
	add := func(note string, sets ...assignment) {
		doc := deepCopy(base).(document)
		for _, a := range sets {
			set(doc, a.path, a.p.value, a.p.absent, emptyObject)
		}
		out = append(out, Case{Type: s.name, Field: tg.String(), Tag: tg.field.Validate.Raw.Value, Probe: note, Doc: encode(doc), Path: s.path, subject: s, target: tg})
	}
	for _, p := range h.fieldProbes(s, tg, base) {
		add(p.note, assignment{tg.path, p})
	}
	for _, combo := range h.crossCombos(tg) {
		var notes []string
		for _, a := range combo {
			notes = append(notes, pathString(a.path[len(a.path)-1:])+"="+a.note())
		}
		add("cross: "+strings.Join(notes, ", "), combo...)
	}
	return out
}

// assignment sets one probe at one path.
type assignment struct {
	path []step
	p    probe
}

func (a assignment) note() string {
	if a.p.absent {
		return "absent"
	}
	return string(encode(a.p.value))
}

// fieldProbes are the values tried for a field: absent and null, then by
// kind.
func (h *Harness) fieldProbes(s *subject, tg *target, base document) []probe {
	f := tg.field
	lv := f.Validate.Root
	var l probeList
	l.add(absentProbe(), nullProbe())
	d := f.Type.Deref()
	switch {
	case d == nil:
	case d.Kind == model.KindSlice:
		h.listProbes(&l, s, tg, base, d, lv)
	case d.Kind == model.KindMap:
		h.mapProbes(&l, s, tg, base, d, lv)
	case structOf(f.Type) != nil || d.Kind == model.KindStruct:
		l.add(probe{note: "empty object", value: map[string]any{}}, str("wrong type", "x"))
		l.add(objectProbes(structOf(f.Type))...)
	default:
		l.add(scalarProbes(f.Type, lv)...)
		l.add(wrongType(d))
	}
	return l.out
}

func wrongType(t *model.TypeRef) probe {
	switch t.Kind {
	case model.KindString, model.KindTime, model.KindBytes:
		return num("wrong type", "1")
	case model.KindBool:
		return num("wrong type", "0")
	}
	return probe{note: "wrong type", value: []any{}}
}

// good returns element values validator accepts at the given place of the
// document (a list element or a map entry), up to n distinct ones.
func (h *Harness) good(s *subject, tg *target, base document, cands []probe, wrap func(any) any, n int) []any {
	var out []any
	for _, c := range cands {
		if len(out) == n {
			break
		}
		doc := deepCopy(base).(document)
		set(doc, tg.path, wrap(c.value), false, emptyObject)
		verdict, errs := s.val.judge(encode(doc))
		ok := verdict.Accept || len(errs) > 0
		for _, e := range errs {
			if strings.HasPrefix(e.Namespace, tg.ns+"[") {
				ok = false
			}
		}
		if ok {
			out = append(out, c.value)
		}
	}
	return out
}

func (h *Harness) listProbes(l *probeList, s *subject, tg *target, base document, t *model.TypeRef, lv *model.Level) {
	elems := h.elementSeeds(t.Elem, lv.Dive)
	good := h.good(s, tg, base, elems, func(v any) any { return []any{v} }, 12)
	if len(good) == 0 && len(elems) > 0 {
		good = []any{elems[0].value}
	}
	list := func(n int) []any {
		out := make([]any, n)
		for i := range out {
			if len(good) > 0 {
				out[i] = deepCopy(good[i%len(good)])
			}
		}
		return out
	}
	l.add(probe{note: "empty list", value: []any{}}, probe{note: "one", value: list(1)}, probe{note: "two", value: list(2)},
		probe{note: "wrong type", value: map[string]any{}})
	if len(good) > 0 {
		l.add(probe{note: "duplicates", value: []any{good[0], deepCopy(good[0])}})
	}
	for _, n := range lengths(lv) {
		l.add(probe{note: "length " + strconv.Itoa(n), value: list(n)})
	}
	for _, e := range elems {
		l.add(probe{note: "element " + e.note, value: []any{e.value}})
		if len(good) > 0 {
			l.add(probe{note: "second element " + e.note, value: []any{good[0], e.value}})
		}
	}
	l.add(probe{note: "null element", value: []any{nil}})
}

func (h *Harness) mapProbes(l *probeList, s *subject, tg *target, base document, t *model.TypeRef, lv *model.Level) {
	vals := h.elementSeeds(t.Elem, lv.Dive)
	keys := keyProbes(t.Key, lv.Keys)
	goodVals := h.good(s, tg, base, vals, func(v any) any { return map[string]any{"k": v} }, 4)
	if len(goodVals) == 0 && len(vals) > 0 {
		goodVals = []any{vals[0].value}
	}
	var v0 any = ""
	if len(goodVals) > 0 {
		v0 = goodVals[0]
	}
	goodKeys := h.good(s, tg, base, keys, func(k any) any { return map[string]any{k.(string): deepCopy(v0)} }, 16)
	if len(goodKeys) == 0 {
		goodKeys = []any{"k"}
	}
	object := func(n int) map[string]any {
		out := map[string]any{}
		for i := range n {
			k := goodKeys[i%len(goodKeys)].(string)
			if i >= len(goodKeys) {
				k += strconv.Itoa(i)
			}
			out[k] = deepCopy(goodVals[i%max(1, len(goodVals))])
		}
		return out
	}
	l.add(probe{note: "empty map", value: map[string]any{}}, probe{note: "one", value: object(1)}, probe{note: "two", value: object(2)},
		probe{note: "wrong type", value: []any{}})
	for _, n := range lengths(lv) {
		l.add(probe{note: "size " + strconv.Itoa(n), value: object(n)})
	}
	for _, k := range keys {
		l.add(probe{note: "key " + k.note, value: map[string]any{k.value.(string): deepCopy(v0)}})
	}
	for _, v := range vals {
		l.add(probe{note: "value " + v.note, value: map[string]any{goodKeys[0].(string): v.value}})
	}
	l.add(probe{note: "null value", value: map[string]any{goodKeys[0].(string): nil}})
}

// keyProbes are map keys to try: a key is a JSON property name, so every
// probe is a string (numbers spelled out for integer keys).
func keyProbes(t *model.TypeRef, lv *model.Level) []probe {
	var out []probe
	for _, p := range scalarProbes(t, lv) {
		switch v := p.value.(type) {
		case string:
			out = append(out, p)
		case json.Number:
			out = append(out, str(p.note, string(v)))
		}
	}
	return out
}

// lengths are the list or map sizes around the level's length bounds.
func lengths(lv *model.Level) []int {
	var out []int
	for _, u := range uses(lv) {
		if v, ok := u.Value.(float64); ok && u.Keyword.Class() == model.Schema {
			n := int(v)
			for _, d := range []int{-1, 0, 1} {
				if n+d >= 0 && n+d <= 64 {
					out = append(out, n+d)
				}
			}
		}
	}
	return out
}

// crossCombos are the documents of a field with cross-field keywords: every
// combination of a few values of the field and of each field it names.
func (h *Harness) crossCombos(tg *target) [][]assignment {
	siblings := map[string]*model.Field{}
	var order []string
	params := map[string][]string{} // sibling -> values named by _if/_unless
	for _, u := range uses(tg.field.Validate.Root) {
		for name, vals := range crossRefs(u) {
			f := tg.owner.Field(name)
			if f == nil || f.JSONName == "" {
				continue
			}
			if siblings[name] == nil {
				order = append(order, name)
			}
			siblings[name] = f
			params[name] = append(params[name], vals...)
		}
	}
	if len(order) == 0 {
		return nil
	}
	container := tg.path[:len(tg.path)-1]
	axes := [][]assignment{h.crossValues(tg.field, appendPath(container, prop(tg.field.JSONName)), nil)}
	for _, name := range order {
		f := siblings[name]
		axes = append(axes, h.crossValues(f, appendPath(container, prop(f.JSONName)), params[name]))
	}
	var combos [][]assignment
	var walk func(i int, acc []assignment)
	walk = func(i int, acc []assignment) {
		if len(combos) >= 256 {
			return
		}
		if i == len(axes) {
			combos = append(combos, append([]assignment(nil), acc...))
			return
		}
		for _, a := range axes[i] {
			walk(i+1, append(acc, a))
		}
	}
	walk(0, nil)
	return combos
}

// crossRefs names the sibling fields a cross-field keyword reads, with the
// values an _if/_unless condition compares them with.
func crossRefs(u *model.Use) map[string][]string {
	name := u.Keyword.Name()
	words := strings.Fields(u.Param)
	out := map[string][]string{}
	switch {
	case strings.HasSuffix(name, "field"):
		if f, ok := u.Value.(*model.Field); ok {
			out[f.GoName] = nil
		}
	case strings.HasSuffix(name, "_if") || strings.HasSuffix(name, "_unless"):
		for i := 0; i+1 < len(words); i += 2 {
			out[words[i]] = append(out[words[i]], words[i+1])
		}
	case strings.HasPrefix(name, "required_") || strings.HasPrefix(name, "excluded_"):
		for _, w := range words {
			out[w] = nil
		}
	}
	return out
}

// crossValues are the values a field takes in cross-field combinations:
// absent, its zero value, a few others of its type, and the values a
// condition names with their near misses.
func (h *Harness) crossValues(f *model.Field, path []step, named []string) []assignment {
	var l probeList
	l.add(absentProbe())
	d := f.Type.Deref()
	switch {
	case d == nil:
	case d.Kind == model.KindSlice:
		e := firstValue(h.elementSeeds(d.Elem, nil))
		l.add(nullProbe(), probe{note: "empty", value: []any{}}, probe{note: "one", value: []any{e}})
	case d.Kind == model.KindMap:
		e := firstValue(h.elementSeeds(d.Elem, nil))
		l.add(nullProbe(), probe{note: "empty", value: map[string]any{}}, probe{note: "one", value: map[string]any{"k": e}})
	case structOf(f.Type) != nil || d.Kind == model.KindStruct:
		l.add(nullProbe(), probe{note: "object", value: map[string]any{}})
		if ps := objectProbes(structOf(f.Type)); len(ps) > 1 {
			l.add(ps[1])
		}
	default:
		if f.Type.Kind == model.KindPointer {
			l.add(nullProbe())
		}
		l.add(crossScalars(d)...)
		for _, v := range named {
			l.add(namedValue(d, v)...)
		}
	}
	out := make([]assignment, len(l.out))
	for i, p := range l.out {
		out[i] = assignment{path: path, p: p}
	}
	return out
}

func firstValue(ps []probe) any {
	if len(ps) == 0 {
		return ""
	}
	return ps[0].value
}

func crossScalars(t *model.TypeRef) []probe {
	switch t.Kind {
	case model.KindString:
		return []probe{str("empty", ""), str("a", "a"), str("b", "b"), str("ab", "ab")}
	case model.KindInt, model.KindDuration:
		out := []probe{num("0", "0"), num("1", "1"), num("2", "2")}
		if !t.Unsigned {
			out = append(out, num("-1", "-1"))
		}
		return out
	case model.KindFloat:
		return []probe{num("0", "0"), num("0.5", "0.5"), num("1", "1"), num("1.0", "1.0"), num("2", "2")}
	case model.KindBool:
		return []probe{{note: "false", value: false}, {note: "true", value: true}}
	case model.KindTime:
		return []probe{str("early", "2024-01-02T03:04:05Z"), str("late", "2025-01-02T03:04:05Z")}
	}
	return []probe{str("a", "a")}
}

// namedValue is a condition's value as JSON and its near misses.
func namedValue(t *model.TypeRef, v string) []probe {
	switch t.Kind {
	case model.KindString:
		return []probe{str("named", v), str("named +x", v+"x"), str("named upper", strings.ToUpper(v))}
	case model.KindBool:
		return []probe{{note: "named", value: v == "true"}, {note: "not named", value: v != "true"}}
	case model.KindInt, model.KindFloat, model.KindDuration:
		out := []probe{num("named", v)}
		if n, err := strconv.ParseFloat(v, 64); err == nil {
			out = append(out, num("named +1", strconv.FormatFloat(n+1, 'f', -1, 64)))
		}
		return out
	}
	return nil
}

// objectProbes are objects of a struct with one scalar field set: zero and
// non-zero values, so that "has a value" (a non-zero struct) is probed.
func objectProbes(t *model.Type) []probe {
	if t == nil {
		return nil
	}
	var out []probe
	for _, f := range t.Fields {
		d := f.Type.Deref()
		if f.JSONName == "" || f.Skip || d == nil || structOf(f.Type) != nil || d.Kind == model.KindSlice || d.Kind == model.KindMap {
			continue
		}
		for _, p := range crossScalars(d) {
			out = append(out, probe{note: "object with " + f.JSONName + "=" + p.note, value: map[string]any{f.JSONName: p.value}})
		}
	}
	return out
}
