package model

import (
	"slices"
	"sort"
	"strings"

	"github.com/modelgen/modelgen/model/accesstag"
)

// AccessRules are the resolved access rules of a
type AccessRules struct {
	// Types holds every governed struct type: the struct types of packages
	// that use access tags or markers, and the user struct types they reach.
	Types map[*Type]*TypeAccess
	// Roles holds the roles of each governed package: every role its tags
	// and markers name (what `*` means there), sorted.
	Roles map[*Package][]string
}

// Sorted returns the governed types ordered by package path and name.
func (r *AccessRules) Sorted() []*TypeAccess {
	out := make([]*TypeAccess, 0, len(r.Types))
	for _, tr := range r.Types {
		out = append(out, tr)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].Type, out[j].Type
		if a.Pkg.Path != b.Pkg.Path {
			return a.Pkg.Path < b.Pkg.Path
		}
		return a.Name < b.Name
	})
	return out
}

// For returns the rules of a type, nil when it is not governed.
func (r *AccessRules) For(t *Type) *TypeAccess { return r.Types[t] }

// TypeAccess are the rules of one struct type.
type TypeAccess struct {
	Type *Type
	// Fields are the type's own exported fields, in declaration order.
	Fields []*FieldAccess
	// Table is the flattened field table: every field of the type and,
	// depth first, of the containers inside it. Nil unless Flat.
	Table []AccessRow
	// Flat is false when the table cannot be built (a recursive type).
	Flat bool
	// Tenant is the row of the tenant key, -1 when the type has none.
	Tenant int
}

// FieldAccess is the rule of one field of one type.
type FieldAccess struct {
	Field *Field
	// Read and Write are the roles the field's own rule grants (tag, else
	// type default, else none), `*` expanded, sorted.
	Read, Write []string
	Tenant      bool
	// Nested is the user struct type inside a container field, nil for a
	// leaf; Shape says how the field holds it.
	Nested *Type
	Shape  AccessShape
}

// Segment is the field's JSON path segment: its JSON name, or its Go name
// in parentheses for an inlined embedded struct or a field JSON skips.
func (f *FieldAccess) Segment() string {
	if f.Field.JSONName == "" || f.Field.Skip {
		return "(" + f.Field.GoName + ")"
	}
	return f.Field.JSONName
}

// Inline reports an embedded struct whose fields JSON inlines into its parent.
func (f *FieldAccess) Inline() bool { return f.Field.JSONName == "" && !f.Field.Skip }

// AccessShape is how a container field holds its nested struct.
type AccessShape struct {
	Ptr     bool     // *T
	List    bool     // []T, [n]T (Len says which)
	Len     int      // -1 for a slice, n for an array
	Map     bool     // map[K]T
	ElemPtr bool     // []*T, map[K]*T
	Key     *TypeRef // the map key
}

// Repeated reports a list or map: its elements get [] or {} in paths.
func (s AccessShape) Repeated() bool { return s.List || s.Map }

// AccessRow is one line of a flattened field table.
type AccessRow struct {
	// Path is the JSON path from the table's type: "spec.payerId",
	// "spec.items[].price", "spec.byRegion{}.limit", "(TypeMeta)".
	Path string
	// Parent is the row of the enclosing container, -1 at the top.
	Parent int
	// Size counts the rows of the field's subtree, itself included.
	Size  int
	Field *FieldAccess
}

// Effective returns the roles that may read (or write) a row: the roles of
// its own rule that every enclosing container grants too.
func (tr *TypeAccess) Effective(row int, write bool) []string {
	var out []string
	for i := row; i >= 0; i = tr.Table[i].Parent {
		own := tr.Table[i].Field.Read
		if write {
			own = tr.Table[i].Field.Write
		}
		if i == row {
			out = slices.Clone(own)
			continue
		}
		out = slices.DeleteFunc(out, func(r string) bool { return !slices.Contains(own, r) })
	}
	return out
}

// resolveAccess parses every access tag and marker of the model and builds the
// rules. Problems are positioned diagnostics; the rules returned are still
// usable for the types without errors.
func resolveAccess(m *Model) (*AccessRules, Diagnostics) {
	rs := &accessResolver{
		rules:    &AccessRules{Types: map[*Type]*TypeAccess{}, Roles: map[*Package][]string{}},
		tags:     map[*Field]*accesstag.Tag{},
		defaults: map[*Type]*accesstag.Tag{},
		flat:     map[*Type]int{},
	}
	for _, pk := range m.Packages {
		rs.parsePackage(pk)
	}
	for _, t := range m.SortedTypes() {
		if _, ok := rs.rules.Roles[t.Pkg]; ok && t.TypeKind == TypeStruct {
			rs.govern(t)
		}
	}
	for _, tr := range rs.rules.Sorted() {
		rs.flatten(tr)
	}
	for _, tr := range rs.rules.Sorted() {
		rs.findTenant(tr)
	}
	rs.unreachableRoles()
	return rs.rules, rs.diags
}

// unreachableRoles warns of a field whose own access tag grants read or
// write only to roles that a container around it grants none of: a role
// reads (writes) a field only where every enclosing container lets it too
// (Effective), so no role can, which the tag's author did not mean. A field
// is judged in the tables of the root types (a resource root, a model, or a
// type no governed type holds): it is warned of when it shows in one and no
// role reaches it in any, once per field and kind of access, naming the
// first container that stops it. A role list that comes from a type's
// default is not warned of (the default covers every field of the type,
// wherever the type is held).
func (rs *accessResolver) unreachableRoles() {
	held := map[*Type]bool{}
	for _, tr := range rs.rules.Types {
		for _, fa := range tr.Fields {
			if fa.Nested != nil && fa.Nested != tr.Type {
				held[fa.Nested] = true
			}
		}
	}
	type stop struct {
		tr       *TypeAccess
		row, box int
	}
	type key struct {
		f     *Field
		write bool
	}
	reached := map[key]bool{}
	first := map[key]stop{}
	var order []key
	for _, tr := range rs.rules.Sorted() {
		if !tr.Flat || held[tr.Type] && !tr.Type.Root && !tr.Type.Model {
			continue
		}
		for row, r := range tr.Table {
			tag := rs.tags[r.Field.Field]
			if tag == nil {
				continue
			}
			for _, write := range []bool{false, true} {
				own, set := r.Field.Read, tag.Read.Set
				if write {
					own, set = r.Field.Write, tag.Write.Set
				}
				k := key{r.Field.Field, write}
				if !set || len(own) == 0 || reached[k] {
					continue
				}
				if len(tr.Effective(row, write)) > 0 {
					reached[k] = true
					continue
				}
				if _, ok := first[k]; !ok {
					// the message names the container where the roles run out
					left, box := slices.Clone(own), -1
					for i := r.Parent; i >= 0 && len(left) > 0; i = tr.Table[i].Parent {
						grant := tr.Table[i].Field.Read
						if write {
							grant = tr.Table[i].Field.Write
						}
						left = slices.DeleteFunc(left, func(x string) bool { return !slices.Contains(grant, x) })
						box = i
					}
					first[k] = stop{tr, row, box}
					order = append(order, k)
				}
			}
		}
	}
	for _, k := range order {
		if reached[k] {
			continue
		}
		s := first[k]
		verb, roles, own := "read", rs.tags[k.f].Read, s.tr.Table[s.row].Field.Read
		if k.write {
			verb, roles, own = "write", rs.tags[k.f].Write, s.tr.Table[s.row].Field.Write
		}
		name := s.tr.Type.Name
		rs.diags.Warnf(k.f.AccessTag.At(roles.Offset), "access: no role may %s %s.%s: its tag grants %s to %s, but the container %s.%s grants %s to none of them (a role may %s a field only where every container around it lets it too)",
			verb, name, s.tr.Table[s.row].Path, verb, strings.Join(own, ", "), name, s.tr.Table[s.box].Path, verb, verb)
	}
}

type accessResolver struct {
	rules    *AccessRules
	diags    Diagnostics
	tags     map[*Field]*accesstag.Tag
	defaults map[*Type]*accesstag.Tag
	// flat tracks flattening: 1 in progress, 2 done.
	flat map[*Type]int
}

// parsePackage parses the tags and markers of a package's types and
// collects its roles; a package with neither is not governed.
func (rs *accessResolver) parsePackage(pk *Package) {
	governed := false
	roles := map[string]bool{}
	for _, t := range pk.Types {
		if d := rs.parseDefaults(t); d != nil {
			governed = true
			addRoles(roles, d)
		}
		for _, f := range t.Fields {
			if !f.AccessTag.Set {
				continue
			}
			governed = true
			tag, errs := accesstag.Parse(f.AccessTag.Value)
			for _, e := range errs {
				rs.diags.Errorf(f.AccessTag.At(e.Offset), "access: %s", e.Msg)
			}
			rs.tags[f] = tag
			addRoles(roles, tag)
		}
	}
	if governed {
		list := make([]string, 0, len(roles))
		for r := range roles {
			list = append(list, r)
		}
		sort.Strings(list)
		rs.rules.Roles[pk] = list
	}
}

func addRoles(set map[string]bool, t *accesstag.Tag) {
	for _, r := range append(slices.Clone(t.Read.Names), t.Write.Names...) {
		set[r] = true
	}
}

// parseDefaults combines a type's access default markers.
func (rs *accessResolver) parseDefaults(t *Type) *accesstag.Tag {
	marks := markerTags(t)
	if len(marks) == 0 {
		return nil
	}
	d := &accesstag.Tag{}
	for _, mk := range marks {
		tag, errs := accesstag.Parse(mk.Value)
		for _, e := range errs {
			rs.diags.Errorf(mk.At(e.Offset), "+%s: %s", AccessDefaultMarker.Name, e.Msg)
		}
		if tag.Tenant {
			rs.diags.Errorf(mk.At(tag.TenantOffset), "+%s: tenant is a field's tag, not a default", AccessDefaultMarker.Name)
		}
		for _, c := range []struct {
			name     string
			dst, src *accesstag.Roles
		}{{"read", &d.Read, &tag.Read}, {"write", &d.Write, &tag.Write}} {
			if !c.src.Set {
				continue
			}
			if c.dst.Set {
				rs.diags.Errorf(mk.At(c.src.Offset), "+%s: a second %s default for %s", AccessDefaultMarker.Name, c.name, t.Name)
				continue
			}
			*c.dst = *c.src
		}
	}
	rs.defaults[t] = d
	return d
}

// govern builds the field rules of a type and of the user struct types its
// containers hold.
func (rs *accessResolver) govern(t *Type) {
	if _, done := rs.rules.Types[t]; done {
		return
	}
	tr := &TypeAccess{Type: t, Tenant: -1}
	rs.rules.Types[t] = tr
	for _, f := range t.Fields {
		fr := rs.fieldRule(t, f)
		tr.Fields = append(tr.Fields, fr)
		if fr.Nested != nil {
			rs.govern(fr.Nested)
		}
	}
}

func (rs *accessResolver) fieldRule(t *Type, f *Field) *FieldAccess {
	fr := &FieldAccess{Field: f}
	tag := rs.tags[f]
	if tag == nil {
		tag = &accesstag.Tag{}
	}
	def := rs.defaults[t]
	if def == nil {
		def = &accesstag.Tag{}
	}
	roles := rs.rules.Roles[t.Pkg]
	fr.Read = rs.expand(f, pick(tag.Read, def.Read), roles)
	fr.Write = rs.expand(f, pick(tag.Write, def.Write), roles)
	if tag.Tenant {
		fr.Tenant = true
		if f.Type.Kind != KindString {
			rs.diags.Errorf(f.AccessTag.At(tag.TenantOffset), "access: the tenant key must be a string, not %s", f.Type.GoType)
		}
	}
	shape, nested, ok := shapeOf(f.Type)
	if !ok {
		rs.diags.Errorf(f.Pos, "access: %s holds a struct in a way generated filters do not support (%s); use T, *T, []T, []*T, [n]T, map[K]T or map[K]*T", f.GoName, f.Type.GoType)
	}
	fr.Shape, fr.Nested = shape, nested
	return fr
}

func pick(own, def accesstag.Roles) accesstag.Roles {
	if own.Set {
		return own
	}
	return def
}

// expand turns a role list into sorted role names, `*` into the package's
// roles.
func (rs *accessResolver) expand(f *Field, r accesstag.Roles, pkgRoles []string) []string {
	switch {
	case r.Any:
		if len(pkgRoles) == 0 {
			rs.diags.Warnf(f.Pos, "access: * names no role: no access tag or marker of the package names one")
		}
		return slices.Clone(pkgRoles)
	case r.None || !r.Set:
		return []string{}
	}
	out := slices.Clone(r.Names)
	sort.Strings(out)
	return out
}

// shapeOf finds the user struct a field holds and how. ok is false when a
// user struct is held in a shape the generator does not support.
func shapeOf(t *TypeRef) (AccessShape, *Type, bool) {
	s := AccessShape{}
	if t.Kind == KindPointer {
		s.Ptr, t = true, t.Elem
		if n := userStruct(t); n != nil {
			return s, n, true
		}
		return AccessShape{}, nil, !holdsUserStruct(t)
	}
	if n := userStruct(t); n != nil {
		return s, n, true
	}
	switch t.Kind {
	case KindSlice:
		s.List, s.Len = true, t.Len
	case KindMap:
		s.Map, s.Key = true, t.Key
	default:
		return AccessShape{}, nil, true
	}
	elem := t.Elem
	if elem.Kind == KindPointer {
		s.ElemPtr, elem = true, elem.Elem
	}
	if n := userStruct(elem); n != nil {
		return s, n, true
	}
	return AccessShape{}, nil, !holdsUserStruct(t.Elem)
}

func userStruct(t *TypeRef) *Type {
	if t.Kind == KindStruct && t.Named != nil && t.Named.TypeKind == TypeStruct {
		return t.Named
	}
	return nil
}

func holdsUserStruct(t *TypeRef) bool {
	if t == nil {
		return false
	}
	if userStruct(t) != nil {
		return true
	}
	return holdsUserStruct(t.Elem)
}

// flatten builds a type's field table, depth first. A type met again while
// it is being flattened is recursive: its table would be infinite.
func (rs *accessResolver) flatten(tr *TypeAccess) bool {
	switch rs.flat[tr.Type] {
	case 1:
		return false
	case 2:
		return tr.Flat
	}
	rs.flat[tr.Type] = 1
	defer func() { rs.flat[tr.Type] = 2 }()
	var rows []AccessRow
	for _, fr := range tr.Fields {
		idx := len(rows)
		rows = append(rows, AccessRow{Path: fr.Segment(), Parent: -1, Field: fr})
		if fr.Nested != nil {
			if rs.flat[fr.Nested] == 1 {
				rs.diags.Errorf(fr.Field.Pos, "access: %s.%s makes %s recursive; a recursive type cannot carry access rules", tr.Type.Name, fr.Field.GoName, fr.Nested.Name)
				return false
			}
			sub := rs.rules.Types[fr.Nested]
			if !rs.flatten(sub) {
				return false // reported where the cycle closes
			}
			rows = append(rows, nest(sub.Table, idx, childBase(rows[idx], fr))...)
		}
		rows[idx].Size = len(rows) - idx
	}
	tr.Table, tr.Flat = rows, true
	return true
}

// childBase is the path the rows inside a container continue from.
func childBase(r AccessRow, fr *FieldAccess) string {
	switch {
	case fr.Inline():
		return strings.TrimSuffix(strings.TrimSuffix(r.Path, fr.Segment()), ".")
	case fr.Shape.List:
		return r.Path + "[]"
	case fr.Shape.Map:
		return r.Path + "{}"
	}
	return r.Path
}

// nest copies a nested type's table under the row at idx.
func nest(sub []AccessRow, idx int, base string) []AccessRow {
	out := make([]AccessRow, len(sub))
	for i, r := range sub {
		r.Path = join(base, r.Path)
		if r.Parent < 0 {
			r.Parent = idx
		} else {
			r.Parent += idx + 1
		}
		out[i] = r
	}
	return out
}

func join(base, p string) string {
	if base == "" {
		return p
	}
	return base + "." + p
}

// findTenant finds the tenant key of a type: a tenant field reached through
// structs and pointers only (one inside a list or map belongs to the
// elements, not to the type).
func (rs *accessResolver) findTenant(tr *TypeAccess) {
	if !tr.Flat {
		return
	}
	var keys []int
	for i, r := range tr.Table {
		if r.Field.Tenant && r.Field.Field.Type.Kind == KindString && !underRepeated(tr, i) {
			keys = append(keys, i)
		}
	}
	if len(keys) == 0 {
		return
	}
	tr.Tenant = keys[0]
	if len(keys) > 1 && topField(tr, keys[0]) != topField(tr, keys[1]) {
		second := tr.Table[topField(tr, keys[1])].Field.Field
		pos := second.Pos
		if keys[1] == topField(tr, keys[1]) {
			pos = second.AccessTag.At(0)
		}
		rs.diags.Errorf(pos, "access: %s has two tenant keys, %s and %s; a type has at most one", tr.Type.Name, tr.Table[keys[0]].Path, tr.Table[keys[1]].Path)
	}
}

func underRepeated(tr *TypeAccess, row int) bool {
	for i := tr.Table[row].Parent; i >= 0; i = tr.Table[i].Parent {
		if tr.Table[i].Field.Shape.Repeated() {
			return true
		}
	}
	return false
}

// topField is the row of the type's own field that contains a row.
func topField(tr *TypeAccess, row int) int {
	for tr.Table[row].Parent >= 0 {
		row = tr.Table[row].Parent
	}
	return row
}
