package rbac_test

// An independent, reflection-based model of what the generated code must
// do, for the property tests: it walks Go values by the field table's JSON
// paths and says which fields a subject may read and write.

import (
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/modelgen/modelgen/rbac"
)

// rights computes, without the run time, the rows a subject may read and
// write: per role, a tenant override grants the listed rows, their subtrees
// and their containers; otherwise a role the tags name gets the rows whose
// own rule and every container's rule name it; any other role gets nothing.
func rights(t *rbac.Table, doc rbac.PolicyDoc, s rbac.Subject) (read, write []bool) {
	rows := t.Fields()
	read, write = make([]bool, len(rows)), make([]bool, len(rows))
	known := t.Roles()
	for _, role := range s.Roles {
		if g, ok := doc.Tenants[s.Tenant].Types[t.Name()][role]; ok {
			or(read, granted(rows, g.Read))
			or(write, granted(rows, g.Write))
			continue
		}
		if !slices.Contains(known, role) {
			continue
		}
		r, w := make([]bool, len(rows)), make([]bool, len(rows))
		for i, f := range rows {
			r[i] = slices.Contains(f.Read, role) && (f.Parent < 0 || r[f.Parent])
			w[i] = slices.Contains(f.Write, role) && (f.Parent < 0 || w[f.Parent])
		}
		or(read, r)
		or(write, w)
	}
	return read, write
}

func granted(rows []rbac.Field, paths []string) []bool {
	out := make([]bool, len(rows))
	for i, f := range rows {
		out[i] = slices.Contains(paths, "*") || slices.Contains(paths, f.Path) || f.Parent >= 0 && out[f.Parent]
	}
	for i := len(rows) - 1; i >= 0; i-- {
		if out[i] && rows[i].Parent >= 0 {
			out[rows[i].Parent] = true
		}
	}
	return out
}

func or(dst, src []bool) {
	for i := range dst {
		dst[i] = dst[i] || src[i]
	}
}

// field is one Go field met in a walk, with its table row and the JSON path
// of this instance ("items[2].price").
type field struct {
	row  int
	path string
	v    reflect.Value // settable unless inside a map value
	set  func(reflect.Value)
}

// segment is a struct field's segment in table paths.
func segment(f reflect.StructField) (seg string, inline bool) {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	switch {
	case name == "-":
		return "(" + f.Name + ")", false
	case name == "" && f.Anonymous:
		return "(" + f.Name + ")", true
	case name == "":
		return f.Name, false
	}
	return name, false
}

func join(base, seg string) string {
	if base == "" {
		return seg
	}
	return base + "." + seg
}

// walker visits the fields of a value and the structs its containers hold.
type walker struct {
	rows  map[string]int
	visit func(f field, container bool) (descend bool)
}

func newWalker(t *rbac.Table, visit func(f field, container bool) bool) *walker {
	rows := map[string]int{}
	for i, f := range t.Fields() {
		rows[f.Path] = i
	}
	return &walker{rows: rows, visit: visit}
}

// walk visits the fields of struct v; table is the path in the table (with
// [] and {}), inst the path of this instance (with indices and keys).
func (w *walker) walk(v reflect.Value, table, inst string, set func(reflect.Value)) {
	for i := range v.NumField() {
		sf := v.Type().Field(i)
		if !sf.IsExported() {
			continue
		}
		seg, inline := segment(sf)
		tp, ip := join(table, seg), join(inst, seg)
		fv := v.Field(i)
		var fset func(reflect.Value)
		if set != nil {
			idx := i
			fset = func(nv reflect.Value) {
				cp := reflect.New(v.Type()).Elem()
				cp.Set(v)
				cp.Field(idx).Set(nv)
				set(cp)
			}
		}
		row, ok := w.rows[tp]
		if !ok {
			panic("no row for " + tp)
		}
		holds := holdsStruct(sf.Type)
		if !w.visit(field{row: row, path: ip, v: fv, set: fset}, holds) || !holds {
			continue
		}
		childTable, childInst := tp, ip
		if inline {
			childTable, childInst = table, inst
		}
		w.container(fv, childTable, childInst, fset)
	}
}

func (w *walker) container(v reflect.Value, table, inst string, set func(reflect.Value)) {
	switch v.Kind() {
	case reflect.Struct:
		w.walk(v, table, inst, set)
	case reflect.Pointer:
		if !v.IsNil() {
			w.walk(v.Elem(), table, inst, nil)
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			e := v.Index(i)
			if e.Kind() == reflect.Pointer {
				if !e.IsNil() {
					w.walk(e.Elem(), table+"[]", inst+"["+strconv.Itoa(i)+"]", nil)
				}
				continue
			}
			w.walk(e, table+"[]", inst+"["+strconv.Itoa(i)+"]", nil)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			e := v.MapIndex(k)
			ip := inst + "[" + strconv.Quote(k.String()) + "]"
			if e.Kind() == reflect.Pointer {
				if !e.IsNil() {
					w.walk(e.Elem(), table+"{}", ip, nil)
				}
				continue
			}
			m, key := v, k
			w.walk(e, table+"{}", ip, func(nv reflect.Value) { m.SetMapIndex(key, nv) })
		}
	}
}

func holdsStruct(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Struct:
		return true
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		e := t.Elem()
		if e.Kind() == reflect.Pointer {
			e = e.Elem()
		}
		return e.Kind() == reflect.Struct
	}
	return false
}

// emptyEqual compares two values as the generated code does: nil and empty
// slices and maps are equal.
func emptyEqual(a, b reflect.Value) bool {
	switch a.Kind() {
	case reflect.Slice, reflect.Map:
		if a.Len() == 0 && b.Len() == 0 {
			return true
		}
	}
	return reflect.DeepEqual(a.Interface(), b.Interface())
}
