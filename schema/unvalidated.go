package schema

import (
	"reflect"
	"slices"
	"sort"
	"strings"

	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-tools/pkg/crd"

	"github.com/modelgen/modelgen/model"
)

// UnvalidatedSuffix names the schema of a type where validator never
// validates its values: "Item" + UnvalidatedSuffix.
//
// validator checks the elements of a slice, array or map only after a
// dive, and walks into a struct field only when it validates the struct
// that holds it (never past `validate:"-"`, `structonly` or
// `nostructlevel`). Where a value of a type is reached that way, its schema
// carries only what encoding/json and the Go types decide (structure,
// types, integer ranges, base64) and the kubebuilder markers, as
// controller-gen would write them, with no validate-derived rule: the
// unvalidated variant. A type whose variant would be its own schema (no
// validate tag anywhere below it) has none.
const UnvalidatedSuffix = ".Unvalidated"

// unvalidated builds the unvalidated variant of every type that needs one
// and points the places validator never checks at it. base holds the
// schemas controller-tools gave each validated struct (see validated),
// before the overlay. Every other type's bare schema is its overlaid
// schema (the overlay of a struct without validate tags does what
// bareStruct does; other types have no overlay): it is shared, and copied
// only when a variant is made of it.
func (s *Set) unvalidated(types []*model.Type, base map[*model.Type]apiext.JSONSchemaProps) {
	bare := map[*model.Type]*apiext.JSONSchemaProps{}
	shared := map[*model.Type]bool{}
	for _, t := range types {
		sc, ok := base[t]
		switch {
		case ok:
			if t.TypeKind == model.TypeStruct {
				s.bareStruct(t, &sc)
			}
		case !validated(t):
			if sc, ok = s.Parser.Schemata[Ident(t)]; !ok {
				continue
			}
			shared[t] = true
		default:
			continue
		}
		bare[t] = &sc
	}
	// A type's variant differs from its schema where its bare schema does
	// (a shared one is its schema) or where it refers to a type whose
	// variant differs: the references are read once, and "differs" spreads
	// from each differing type to the types that refer to it.
	differs := map[*model.Type]bool{}
	var spread []*model.Type
	referrers := map[*model.Type][]*model.Type{}
	for t, sc := range bare {
		if !shared[t] && !reflect.DeepEqual(*sc, s.Parser.Schemata[Ident(t)]) {
			differs[t] = true
			spread = append(spread, t)
			continue
		}
		refsIn(sc, func(ref string) {
			if u := s.refType(ref, t); u != nil {
				referrers[u] = append(referrers[u], t)
			}
		})
	}
	for len(spread) > 0 {
		u := spread[len(spread)-1]
		spread = spread[:len(spread)-1]
		for _, t := range referrers[u] {
			if !differs[t] {
				differs[t] = true
				spread = append(spread, t)
			}
		}
	}
	s.differs = differs
	s.Unvalidated = map[crd.TypeIdent]*model.Type{}
	for _, t := range types {
		if !differs[t] {
			continue
		}
		sc := bare[t]
		if shared[t] {
			// the type's own schema: the variant is a copy
			sc = sc.DeepCopy()
		}
		s.toBare(sc, t)
		id := Ident(t)
		id.Name += UnvalidatedSuffix
		s.Parser.Schemata[id] = *sc
		s.Unvalidated[id] = t
	}
	for _, t := range types {
		if t.TypeKind != model.TypeStruct || t.Root && t.Resource == nil {
			// a List holds stored objects, each validated when written
			continue
		}
		sc := s.Parser.Schemata[Ident(t)]
		s.unvalidatedFields(t, &sc)
		s.Parser.Schemata[Ident(t)] = sc
	}
}

// validated reports a struct with a validate tag on a field: the only
// types whose overlaid schema differs from their bare one.
func validated(t *model.Type) bool {
	if t.TypeKind != model.TypeStruct {
		return false
	}
	for _, f := range t.Fields {
		if f.Validate != nil {
			return true
		}
	}
	return false
}

// bareStruct lays over a struct's controller-tools schema what does not
// come from validate: the Go types' ranges, nullability and the state
// machines. A field with a validate tag is optional: its presence is
// validator's to decide, and here validator does not run. It edits sc in
// place: sc is BuildWith's own copy of the parser's schema, taken before
// the overlay and read by nothing else.
func (s *Set) bareStruct(t *model.Type, sc *apiext.JSONSchemaProps) {
	if s.Target == model.TargetOpenAPI {
		markNullableIf(t, sc, func(*model.Field) bool { return true })
	}
	for _, f := range t.Fields {
		if f.Validate != nil && f.JSONName != "" && !explicitPresence(f) {
			sc.Required = slices.DeleteFunc(sc.Required, func(n string) bool { return n == f.JSONName })
		}
	}
	sort.Strings(sc.Required)
	sc.Required = slices.Compact(sc.Required)
	s.goTypes(t, sc)
	applyMachine(t, sc, s.Target)
}

// unvalidatedFields points each place of a struct's schema that validator
// never checks at the unvalidated variants.
func (s *Set) unvalidatedFields(t *model.Type, sc *apiext.JSONSchemaProps) {
	for _, f := range t.Fields {
		if f.Skip || f.JSONName == "" {
			continue
		}
		prop, ok := sc.Properties[f.JSONName]
		if !ok {
			continue
		}
		switch {
		case f.Validate != nil && (f.Validate.Skip || f.Validate.StructOnly || f.Validate.NoStructLevel):
			s.toBare(&prop, t)
		case model.OptionalStruct(f):
			// runtime only: "zero, or valid" has no schema
			s.toBare(&prop, t)
		case f.Validate != nil:
			s.elements(&prop, f.Type, f.Validate.Root, t)
		default:
			s.elements(&prop, f.Type, nil, t)
		}
		sc.Properties[f.JSONName] = prop
	}
}

// elements follows a value's schema down its lists and maps: elements
// reached without a dive are unvalidated.
func (s *Set) elements(sc *apiext.JSONSchemaProps, r *model.TypeRef, lv *model.Level, owner *model.Type) {
	r = r.Deref()
	if sc == nil || r == nil || (r.Kind != model.KindSlice && r.Kind != model.KindMap) {
		return
	}
	dive := (*model.Level)(nil)
	if lv != nil {
		dive = lv.Dive
	}
	if r.Named != nil && r.Named.TypeKind == model.TypeOther {
		// a named list or map: its schema is a reference; its own schema
		// validates one level of elements (as the dive does)
		if dive == nil {
			s.toBare(sc, owner)
		}
		return
	}
	var child *apiext.JSONSchemaProps
	switch {
	case sc.Items != nil && sc.Items.Schema != nil:
		child = sc.Items.Schema
	case sc.AdditionalProperties != nil && sc.AdditionalProperties.Schema != nil:
		child = sc.AdditionalProperties.Schema
	default:
		return
	}
	if dive == nil {
		s.toBare(child, owner)
		return
	}
	s.elements(child, r.Elem, dive, owner)
}

// toBare points every reference below sc at the unvalidated variants.
func (s *Set) toBare(sc *apiext.JSONSchemaProps, owner *model.Type) {
	eachRef(sc, func(ref *string) {
		if u := s.refType(*ref, owner); u != nil && s.differs[u] {
			*ref += UnvalidatedSuffix
		}
	})
}

// refType is the model type a controller-tools link written in owner's
// package names (nil for other types and for variants).
func (s *Set) refType(ref string, owner *model.Type) *model.Type {
	name, pkg, err := crd.RefParts(ref)
	if err != nil || strings.HasSuffix(name, UnvalidatedSuffix) {
		return nil
	}
	if pkg == "" {
		pkg = owner.Pkg.Path
	}
	return s.byLink[crd.TypeRefLink(pkg, name)]
}

// eachRef calls f on every $ref below sc.
func eachRef(sc *apiext.JSONSchemaProps, f func(*string)) {
	crd.EditSchema(sc, refVisitor(f))
}

// refsIn calls f on every $ref below sc, as eachRef does, without
// editing: eachRef walks with controller-tools' EditSchema, which writes
// every map value back and keeps a map of the references it followed per
// node, and the loop that spreads "differs" to the types that refer to a
// differing type walks every schema at least once.
func refsIn(sc *apiext.JSONSchemaProps, f func(string)) {
	if sc == nil {
		return
	}
	if sc.Ref != nil {
		f(*sc.Ref)
	}
	if sc.Items != nil {
		refsIn(sc.Items.Schema, f)
		refsInSlice(sc.Items.JSONSchemas, f)
	}
	refsInSlice(sc.AllOf, f)
	refsInSlice(sc.OneOf, f)
	refsInSlice(sc.AnyOf, f)
	refsIn(sc.Not, f)
	refsInMap(sc.Properties, f)
	if sc.AdditionalProperties != nil {
		refsIn(sc.AdditionalProperties.Schema, f)
	}
	refsInMap(sc.PatternProperties, f)
	for _, dep := range sc.Dependencies {
		refsIn(dep.Schema, f)
	}
	if sc.AdditionalItems != nil {
		refsIn(sc.AdditionalItems.Schema, f)
	}
	refsInMap(sc.Definitions, f)
}

func refsInSlice(l []apiext.JSONSchemaProps, f func(string)) {
	for i := range l {
		refsIn(&l[i], f)
	}
}

func refsInMap(m map[string]apiext.JSONSchemaProps, f func(string)) {
	var v apiext.JSONSchemaProps // one per map, not per entry
	for k := range m {
		v = m[k]
		refsIn(&v, f)
	}
}

type refVisitor func(*string)

func (v refVisitor) Visit(sc *apiext.JSONSchemaProps) crd.SchemaVisitor {
	if sc == nil {
		return v
	}
	if sc.Ref != nil {
		v(sc.Ref)
	}
	return v
}

// TypeOf is the model type a schema identity belongs to: the type itself,
// or the type of an unvalidated variant.
func (s *Set) TypeOf(id crd.TypeIdent) (*model.Type, bool) {
	if t, ok := s.Unvalidated[id]; ok {
		return t, true
	}
	for _, pk := range s.Model.Packages {
		if pk.Loaded != id.Package {
			continue
		}
		for _, t := range pk.Types {
			if t.Name == id.Name {
				return t, false
			}
		}
	}
	return nil, false
}
