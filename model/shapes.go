package model

import (
	"go/types"
	"reflect"
	"sort"
	"strings"

	"golang.org/x/tools/go/types/typeutil"
)

// Schemaless is the kubebuilder marker that lets a field go without a
// schema (the API server keeps whatever JSON it holds).
const Schemaless = "kubebuilder:validation:Schemaless"

// checkShapes reports the Go shapes no schema can describe: values
// encoding/json cannot encode, generic types, and JSON names that
// encoding/json resolves in ways a schema cannot follow. It runs once every
// type is known.
func (b *builder) checkShapes() {
	for _, t := range b.m.SortedTypes() {
		if t.generic {
			b.m.Diags.Errorf(t.Pos, "%s is a generic type: a schema needs concrete field types; declare a type without type parameters", t.Name)
			continue
		}
		if t.TypeKind != TypeStruct {
			continue
		}
		for _, f := range t.Fields {
			if f.Skip || f.Markers.Get(Schemaless) != nil {
				continue
			}
			b.serializable(t, f, f.Type)
		}
		b.names(t)
	}
}

// serializable reports a field whose value encoding/json cannot encode.
func (b *builder) serializable(t *Type, f *Field, r *TypeRef) {
	for depth := 0; r != nil && depth < 16; depth++ {
		if r.Generic {
			b.m.Diags.Errorf(f.Pos, "%s.%s has the generic type %s: a schema needs concrete types; declare a type without type parameters", t.Name, f.GoName, r.GoType)
			return
		}
		switch r.Kind {
		case KindInvalid:
			if r.Under == "invalid type" || r.GoType == "invalid type" {
				b.m.Diags.Errorf(f.Pos, "%s.%s has the type %s, which does not type-check (an unknown or broken type)%s", t.Name, f.GoName, f.Source, b.brokenDeps(t))
				return
			}
			b.m.Diags.Errorf(f.Pos, "%s.%s has type %s, %s that encoding/json cannot encode; use a type it can (or tag the field json:\"-\")", t.Name, f.GoName, f.Type.GoType, r.what())
			return
		case KindInterface:
			b.m.Diags.Errorf(f.Pos, "%s.%s has the interface type %s: its JSON can be anything, so it has no schema; use a concrete type (or apiextensionsv1.JSON, runtime.RawExtension), or mark the field +%s (with +kubebuilder:pruning:PreserveUnknownFields), or tag it json:\"-\"", t.Name, f.GoName, f.Type.GoType, Schemaless)
			return
		case KindMap:
			if k := r.Key; k != nil && !k.TextKey && k.Kind != KindString && k.Kind != KindInt && k.Kind != KindDuration {
				b.m.Diags.Errorf(f.Pos, "%s.%s has type %s: encoding/json encodes only maps with string or integer keys (or keys that implement encoding.TextMarshaler)", t.Name, f.GoName, f.Type.GoType)
				return
			}
		}
		r = r.Elem
	}
}

// what names the Go kind of an unencodable type, for messages.
func (r *TypeRef) what() string {
	switch {
	case strings.HasPrefix(r.Under, "func"):
		return "a function"
	case strings.HasPrefix(r.Under, "chan") || strings.HasPrefix(r.Under, "<-chan"):
		return "a channel"
	case strings.HasPrefix(r.Under, "complex"):
		return "a complex number"
	case r.Under == "unsafe.Pointer":
		return "an unsafe.Pointer"
	}
	return "a type (" + r.Under + ")"
}

// jsonField is one field as encoding/json sees it.
type jsonField struct {
	name   string
	depth  int
	tagged bool
	path   []string // Go names from the struct down to the field
	v      *types.Var
	tag    reflect.StructTag
}

// names follows encoding/json over a struct's fields, embedded structs
// included: a JSON name given at two depths belongs to the shallower field;
// two fields at the same depth leave it to the tagged one, or to none.
// Where a field of the struct itself loses, the model skips it (a warning)
// and its schema leaves it out; where a promoted field loses, no schema of
// the embedded type can say so, and it is an error.
func (b *builder) names(t *Type) {
	st, ok := t.goType().Underlying().(*types.Struct)
	if !ok {
		return
	}
	byName := map[string][]jsonField{}
	var order []string
	for _, jf := range jsonFields(st, 0, nil, map[*types.Struct]bool{}) {
		if _, seen := byName[jf.name]; !seen {
			order = append(order, jf.name)
		}
		byName[jf.name] = append(byName[jf.name], jf)
	}
	for _, name := range order {
		fields := byName[name]
		if len(fields) < 2 {
			continue
		}
		winner := dominant(fields)
		for _, jf := range fields {
			if winner != nil && sameField(jf, *winner) {
				continue
			}
			b.lost(t, name, jf, winner)
		}
	}
}

// lost reports a field encoding/json ignores because another field has its
// JSON name.
func (b *builder) lost(t *Type, name string, jf jsonField, winner *jsonField) {
	top := t.Field(jf.path[0])
	if top == nil {
		return
	}
	why := "another field at the same depth has it too, so encoding/json ignores both"
	if winner != nil {
		why = "encoding/json gives it to " + t.Name + "." + strings.Join(winner.path, ".")
	}
	if jf.depth == 0 {
		top.Skip = true
		b.m.Diags.Warnf(top.Pos, "json: %s.%s is named %q, but %s; the schema leaves it out", t.Name, top.GoName, name, why)
		return
	}
	if winner != nil && sameSchema(jf, *winner) {
		b.m.Diags.Warnf(top.Pos, "json: %s.%s, promoted from the embedded %s, is named %q, but %s; the schema of %s keeps it, which changes nothing: both fields have the same type, json options and tags", t.Name, strings.Join(jf.path, "."), top.GoName, name, why, top.GoName)
		return
	}
	b.m.Diags.Errorf(top.Pos, "json: %s.%s, promoted from the embedded %s, is named %q, but %s; the schema of %s cannot leave it out: rename one of the fields or tag it json:\"-\"", t.Name, strings.Join(jf.path, "."), top.GoName, name, why, top.GoName)
}

// sameSchema reports a hidden promoted field whose schema is the one of the
// field that hides it: the same Go type, json options and validate, state
// and access tags. The embedded type's schema may then keep it (as
// controller-gen's does): a value valid for one is valid for both, and
// encoding/json decodes it into the winner.
func sameSchema(lost, winner jsonField) bool {
	if lost.v == nil || winner.v == nil || !types.Identical(lost.v.Type(), winner.v.Type()) {
		return false
	}
	_, lostOpts, _ := strings.Cut(lost.tag.Get("json"), ",")
	_, winOpts, _ := strings.Cut(winner.tag.Get("json"), ",")
	if lostOpts != winOpts {
		return false
	}
	for _, key := range []string{"validate", "state", "access"} {
		if lost.tag.Get(key) != winner.tag.Get(key) {
			return false
		}
	}
	return true
}

func sameField(a, b jsonField) bool { return reflect.DeepEqual(a.path, b.path) }

// dominant is encoding/json's dominantField: the shallowest field, if it
// is alone at its depth or the only tagged one there.
func dominant(fields []jsonField) *jsonField {
	sort.SliceStable(fields, func(i, j int) bool { return fields[i].depth < fields[j].depth })
	top := fields[0].depth
	var tagged []jsonField
	n := 0
	for _, f := range fields {
		if f.depth != top {
			break
		}
		n++
		if f.tagged {
			tagged = append(tagged, f)
		}
	}
	switch {
	case n == 1:
		return &fields[0]
	case len(tagged) == 1:
		return &tagged[0]
	}
	return nil
}

// jsonFields lists the fields encoding/json encodes for a struct, promoted
// ones included, with their depth (encoding/json's typeFields, without the
// dominance step).
func jsonFields(st *types.Struct, depth int, path []string, seen map[*types.Struct]bool) []jsonField {
	if seen[st] || depth > 8 {
		return nil
	}
	seen[st] = true
	defer delete(seen, st)
	var out []jsonField
	for i := 0; i < st.NumFields(); i++ {
		v := st.Field(i)
		tag := reflect.StructTag(st.Tag(i)).Get("json")
		if tag == "-" {
			continue
		}
		ft := types.Unalias(v.Type())
		if p, ok := ft.(*types.Pointer); ok && v.Embedded() {
			ft = types.Unalias(p.Elem())
		}
		if v.Embedded() {
			if !v.Exported() && !isStruct(ft) {
				continue
			}
		} else if !v.Exported() {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if !validJSONName(name) {
			name = "" // encoding/json ignores a name it does not accept
		}
		p := append(append([]string(nil), path...), v.Name())
		if name == "" && v.Embedded() && isStruct(ft) {
			out = append(out, jsonFields(ft.Underlying().(*types.Struct), depth+1, p, seen)...)
			continue
		}
		if name == "" {
			name = v.Name()
		}
		out = append(out, jsonField{name: name, depth: depth, tagged: name != "", path: p, v: v, tag: reflect.StructTag(st.Tag(i))})
	}
	return out
}

func isStruct(t types.Type) bool {
	_, ok := t.Underlying().(*types.Struct)
	return ok
}

// goType is the type's declared Go type.
func (t *Type) goType() types.Type {
	if obj, ok := t.Pkg.Loaded.Types.Scope().Lookup(t.Name).(*types.TypeName); ok {
		return obj.Type()
	}
	return types.Typ[types.Invalid]
}

// genericNamed reports a named type with type parameters or arguments.
func genericNamed(x *types.Named) bool {
	return x.TypeParams().Len() > 0 || x.TypeArgs().Len() > 0
}

// implementsTextMarshaler reports a type encoding/json can use as a map key
// through encoding.TextMarshaler: the key type itself must have the method
// (encoding/json asks the key's type, not a pointer to it).
func implementsTextMarshaler(msets *typeutil.MethodSetCache, t types.Type) bool {
	ms := msets.MethodSet(t)
	for i := 0; i < ms.Len(); i++ {
		if ms.At(i).Obj().Name() == "MarshalText" {
			return true
		}
	}
	return false
}
