package model

import (
	"sort"
	"strings"

	"github.com/modelgen/modelgen/model/vtag"
)

// finish resolves validate tags (now that every type is known) and sorts.
func (b *builder) finish() {
	goTypes(b.m, &b.msets)
	b.checkShapes()
	for _, p := range b.pendingValidate {
		rs := &resolver{owner: p.owner, field: p.field, tag: p.tag, diags: &b.m.Diags, foreign: b.foreignKeywords, app: b.declaredKeywords(p.owner.Pkg)}
		p.field.Validate = rs.resolveTag()
		markerContradictions(p.field, &b.m.Diags)
	}
	b.findRuntimeOnly()
	sort.Slice(b.m.Packages, func(i, j int) bool { return b.m.Packages[i].Path < b.m.Packages[j].Path })
	for _, pk := range b.m.Packages {
		sort.Slice(pk.Types, func(i, j int) bool { return pk.Types[i].Name < pk.Types[j].Name })
	}
	machines, diags := resolveMachines(b.m)
	b.m.Diags.Add(diags)
	for _, mc := range machines {
		mc.Field.Machine = mc
	}
	b.m.Machines = machines
	access, diags := resolveAccess(b.m)
	b.m.Diags.Add(diags)
	b.m.Access = access
	for t, ta := range access.Types {
		t.Access = ta
		for _, fa := range ta.Fields {
			fa.Field.Access = fa
		}
	}
}

// declaredKeywords is the set of keywords the application registers for
// the tags of a package (Config.ValidatorKeywords), asked once per package.
func (b *builder) declaredKeywords(pk *Package) map[string]bool {
	if b.appKeywords == nil || pk == nil {
		return nil
	}
	if set, ok := b.declared[pk.Dir]; ok {
		return set
	}
	set := map[string]bool{}
	for _, name := range b.appKeywords(pk.Dir) {
		set[name] = true
	}
	if b.declared == nil {
		b.declared = map[string]map[string]bool{}
	}
	b.declared[pk.Dir] = set
	return set
}

// resolveTag parses a validate tag and resolves every keyword against the
// registry, the application's declared keywords and the field's type.
// Every problem is a positioned diagnostic. With foreign set, a keyword
// neither knows is a warning and is left out (see Config.ForeignKeywords).
func (rs *resolver) resolveTag() *Rules {
	f, tag, diags := rs.field, rs.tag, rs.diags
	syn, errs := vtag.Parse(tag.Value)
	for _, e := range errs {
		diags.Errorf(tag.At(e.Offset), "validate: %s", e.Msg)
	}
	r := &Rules{Raw: tag, Skip: syn.Skip}
	if syn.Root != nil {
		r.StructOnly, r.NoStructLevel = syn.Root.StructOnly, syn.Root.NoStructLevel
	}
	if len(errs) > 0 || syn.Skip {
		r.Root = &Level{Type: f.Type}
		return r
	}
	r.Root = rs.level(syn.Root, f.Type, false)
	return r
}

// omitOf is the IR's name for the parser's omit keyword.
func omitOf(o vtag.Omit) Omit {
	switch o {
	case vtag.OmitEmpty:
		return OmitEmpty
	case vtag.OmitNil:
		return OmitNil
	case vtag.OmitZero:
		return OmitZero
	}
	return OmitNever
}

type resolver struct {
	owner *Type
	field *Field
	tag   Tag
	diags *Diagnostics
	// foreign: unknown keywords are the application's (a warning)
	foreign bool
	// app: the keywords the application registers itself (declared)
	app map[string]bool
}

func (rs *resolver) level(sl *vtag.Level, t *TypeRef, dived bool) *Level {
	lv := &Level{Type: t, Omit: omitOf(sl.Omit), Pos: rs.tag.At(sl.OmitOffset)}
	for i, c := range sl.Checks {
		if i == sl.OmitIndex {
			lv.Guarded = len(lv.Checks)
		}
		if ch := rs.check(c, t, dived); ch != nil {
			lv.Checks = append(lv.Checks, ch)
		}
	}
	if sl.OmitIndex >= len(sl.Checks) {
		lv.Guarded = len(lv.Checks)
	}
	if sl.Dive != nil {
		container := t.Deref()
		switch container.Kind {
		case KindSlice:
			lv.Dive = rs.level(sl.Dive, container.Elem, true)
		case KindMap:
			lv.Dive = rs.level(sl.Dive, container.Elem, true)
			if sl.Keys != nil {
				lv.Keys = rs.level(sl.Keys, container.Key, true)
			}
		default:
			rs.diags.Errorf(rs.tag.At(sl.DiveOffset), "validate: dive needs a slice, array or map, not %s", t.GoType)
		}
		if sl.Keys != nil && container.Kind != KindMap {
			rs.diags.Errorf(rs.tag.At(sl.KeysOffset), "validate: keys needs a map, not %s", t.GoType)
		}
	}
	rs.contradictions(lv)
	return lv
}

func (rs *resolver) check(c vtag.Check, t *TypeRef, dived bool) *Check {
	ch := &Check{Pos: rs.tag.At(c.Offset)}
	for _, term := range c.Or {
		names := []string{term.Name}
		if alias, ok := Aliases[term.Name]; ok && !term.HasEq {
			names = strings.Split(alias, "|")
		}
		for _, name := range names {
			if u := rs.use(term, name, t, dived); u != nil {
				ch.Or = append(ch.Or, u)
			}
		}
	}
	if len(ch.Or) != len(c.Or) && len(ch.Or) < len(c.Or) {
		return nil
	}
	return ch
}

func (rs *resolver) use(term vtag.Term, name string, t *TypeRef, dived bool) *Use {
	pos := rs.tag.At(term.Offset)
	k, ok := Lookup(name)
	if !ok && rs.app[name] {
		k, ok = newApplicationKeyword(name), true
	}
	if !ok && rs.foreign {
		rs.diags.Warnf(pos, "validate: unknown keyword %q%s: left to the application's validator (a keyword it registers itself, RegisterValidation); no schema carries it", name, suggest(name))
		return nil
	}
	if !ok {
		rs.diags.Errorf(pos, "validate: unknown keyword %q%s; the application's own keywords (RegisterValidation) go in modelgen.yaml's validatorKeywords", name, suggest(name))
		return nil
	}
	if k.Class() == Structural {
		rs.diags.Errorf(pos, "validate: %q cannot be combined with '|'", name)
		return nil
	}
	u := &Use{Keyword: k, Name: name, Param: term.Param, Pos: pos, Type: t, Owner: rs.owner, Field: rs.field, Dived: dived}
	if term.Name != name {
		u.Name = term.Name + "→" + name
	}
	v, err := k.Resolve(u)
	if err != nil {
		rs.diags.Errorf(pos, "validate: %v", err)
		return nil
	}
	u.Value = v
	if !rs.int64Range(u) {
		return nil
	}
	return u
}

// int64Range judges an integer bound of magnitude 2^63 or more, beyond the
// int64 range the API server stores integers in (a uint64 bound such as
// lte=10000000000000000000, or gte=-9223372036854775808): a bound every
// storable value meets is left out of the CRD (with a warning on an
// unsigned type, whose larger values validator accepts and the server
// refuses by their type); one no storable value meets is an error.
func (rs *resolver) int64Range(u *Use) bool {
	f, ok := u.Value.(float64)
	if !ok || !BeyondInt64(u.Type, f) {
		return true
	}
	name := u.Keyword.Name()
	upper := name == "max" || name == "lte" || name == "lt"
	lower := name == "min" || name == "gte" || name == "gt"
	if name == "ne" || upper && f > 0 || lower && f < 0 {
		if u.Type.Deref().Unsigned {
			rs.diags.Warnf(u.Pos, "validate: %s=%s on %s lies beyond the integers the API server stores (int64, up to 9223372036854775807): the CRD leaves it out, and the server refuses larger values by their type", u.Name, u.Param, u.Type.Deref().GoType)
		}
		return true
	}
	rs.diags.Errorf(u.Pos, "validate: %s=%s on %s lies beyond the integers the API server stores (int64, -9223372036854775808 to 9223372036854775807): no value it can store passes; use a bound inside that range", u.Name, u.Param, u.Type.Deref().GoType)
	return false
}

// contradictions reports bounds that no value can meet (min=5,max=3; or
// gt=4,lt=5 on a length or an integer, where no whole number lies between).
func (rs *resolver) contradictions(lv *Level) {
	whole := ValueKind(lv.Type) != KindFloat
	var lo, hi *Use
	var l, h float64
	var lx, hx bool // exclusive bounds (floats only)
	for _, c := range lv.Checks {
		if len(c.Or) != 1 {
			continue
		}
		u := c.Or[0]
		f, ok := u.Value.(float64)
		if !ok {
			continue
		}
		if v, x, ok := bound1(u.Keyword.Name(), f, whole, true); ok && (lo == nil || v > l || v == l && x && !lx) {
			lo, l, lx = u, v, x
		}
		if v, x, ok := bound1(u.Keyword.Name(), f, whole, false); ok && (hi == nil || v < h || v == h && x && !hx) {
			hi, h, hx = u, v, x
		}
	}
	if lo != nil && hi != nil && (l > h || l == h && (lx || hx)) {
		rs.diags.Errorf(hi.Pos, "validate: %s=%s contradicts %s=%s: no value can pass", hi.Keyword.Name(), hi.Param, lo.Keyword.Name(), lo.Param)
	}
}

// bound1 is the lower (or upper) limit a bound keyword sets, and whether it
// is exclusive; on whole numbers gt=4 is the inclusive limit 5.
func bound1(name string, v float64, whole, lower bool) (limit float64, exclusive, ok bool) {
	strict, step := "lt", -1.0
	if lower {
		strict, step = "gt", 1
	}
	switch {
	case name == "len" || name == "eq" || lower && (name == "min" || name == "gte") || !lower && (name == "max" || name == "lte"):
		return v, false, true
	case name == strict && whole:
		return v + step, false, true
	case name == strict:
		return v, true, true
	}
	return 0, false, false
}

// suggest names a close keyword for a typo.
func suggest(name string) string {
	best, bestD := "", 3
	for _, k := range Keywords() {
		if d := editDistance(name, k.Name()); d < bestD {
			best, bestD = k.Name(), d
		}
	}
	if best == "" {
		return ""
	}
	return " (did you mean " + best + "?)"
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
