package openapi

import (
	"reflect"
	"slices"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-tools/pkg/crd"

	"github.com/modelgen/modelgen/model"
	"github.com/modelgen/modelgen/openapi/internal/ecma"
	"github.com/modelgen/modelgen/schema"
)

// clientShapes rewrites a component's schema into forms that client
// generators (oapi-codegen, ogen) accept, without changing which documents
// it accepts:
//   - anyOf whose branches are of one kind (`omitempty,len=4` is "empty or
//     four runes", `a|b` two string rules) becomes not: {allOf: [not a,
//     not b]}: ogen refuses such anyOf ("sum types with same names"), and
//     both generators leave a `not` to the server; "zero or a range" on a
//     number becomes the bounds plus the gap as a `not` (zeroOrRange);
//   - patterns are ECMA-262, as OpenAPI defines them (see openapi/internal/ecma);
//     one without an ECMA-262 form is left out, with a warning at the field;
//   - an object without properties says additionalProperties: true, and
//     time types with fractions of a second carry their Go layout.
func (b *docBuilder) clientShapes(s *apiext.JSONSchemaProps, id crd.TypeIdent) {
	t := b.modelType(id)
	pos := model.Pos{}
	fields := map[string]*model.Field{}
	if t != nil {
		pos = t.Pos
		for _, f := range t.Fields {
			if f.JSONName != "" {
				fields[f.JSONName] = f
			}
		}
	}
	props, additional := s.Properties, s.AdditionalProperties
	s.Properties = nil
	b.shapeTree(s, pos)
	s.Properties, s.AdditionalProperties = props, additional
	freeForm(s)
	for name, p := range props {
		ppos := pos
		if f := fields[name]; f != nil {
			ppos = f.Pos
		}
		b.shapeTree(&p, ppos)
		props[name] = p
	}
}

// shapeTree applies clientShapes' rewrites to s and every schema below it.
func (b *docBuilder) shapeTree(s *apiext.JSONSchemaProps, pos model.Pos) {
	if s == nil {
		return
	}
	foldSameKindAnyOf(s)
	freeForm(s)
	b.eachSubschema(s, func(sub *apiext.JSONSchemaProps) { b.shapeTree(sub, pos) })
	if s.Pattern != "" {
		translated, err := ecma.Translate(s.Pattern)
		if err != nil {
			b.warnings.Warnf(pos, "openapi: pattern %q is left out of the OpenAPI document (the CRD and the validator still check it): %v", s.Pattern, err)
		}
		s.Pattern = translated
	}
}

// ECMAPattern is the ECMA-262 pattern the document carries for a Go (RE2)
// pattern of the schemas, or an error when ECMA-262 cannot say it without
// flags (the document then leaves the pattern out, and warns).
func ECMAPattern(re2 string) (string, error) { return ecma.Translate(re2) }

// foldSameKindAnyOf turns anyOf [a, b, ...] into not: {allOf: [not a, not
// b, ...]} (the same set of values, by De Morgan) unless the branches
// differ in type, as IntOrString's integer and string do: generators make
// a sum type of those, and one of those only.
func foldSameKindAnyOf(s *apiext.JSONSchemaProps) {
	if slices.ContainsFunc(s.AnyOf, func(b apiext.JSONSchemaProps) bool { return reflect.DeepEqual(b, apiext.JSONSchemaProps{}) }) {
		s.AnyOf = nil // a branch without rules lets every value through
		return
	}
	if len(s.AnyOf) < 2 || distinctTypes(s.AnyOf) || zeroOrRange(s) {
		return
	}
	var negated []apiext.JSONSchemaProps
	for i := range s.AnyOf {
		negated = append(negated, apiext.JSONSchemaProps{Not: &s.AnyOf[i]})
	}
	s.AnyOf = nil
	none := apiext.JSONSchemaProps{AllOf: negated}
	if s.Not == nil {
		s.Not = &none
		return
	}
	s.AllOf = append(s.AllOf, apiext.JSONSchemaProps{Not: &none})
}

// distinctTypes reports branches that each declare a different type.
func distinctTypes(branches []apiext.JSONSchemaProps) bool {
	var types []string
	for _, b := range branches {
		if b.Type == "" || slices.Contains(types, b.Type) {
			return false
		}
		types = append(types, b.Type)
	}
	return true
}

// enumVarNames names a string enum's values after the Go constants that
// declare them (oapi-codegen's x-enum-varnames), when every value is one.
func enumVarNames(s *openapi3.Schema, consts []model.EnumValue) {
	if s == nil || len(s.Enum) == 0 || len(consts) == 0 {
		return
	}
	names := make([]string, 0, len(s.Enum))
	for _, e := range s.Enum {
		v, ok := e.(string)
		if !ok {
			return
		}
		i := slices.IndexFunc(consts, func(c model.EnumValue) bool { return c.Value == v })
		if i < 0 {
			return
		}
		names = append(names, consts[i].GoName)
	}
	if s.Extensions == nil {
		s.Extensions = map[string]any{}
	}
	s.Extensions["x-enum-varnames"] = names
}

// namedEnums adds x-enum-varnames to a type's own enum and to the enums of
// its properties (and their list items) whose Go type declares constants.
func namedEnums(t *model.Type, s *openapi3.Schema) {
	if t == nil || s == nil {
		return
	}
	enumVarNames(s, t.Enum)
	for _, f := range t.Fields {
		p := s.Properties[f.JSONName]
		if f.JSONName == "" || p == nil || p.Value == nil {
			continue
		}
		ft := f.Type.Deref()
		if ft.Kind == model.KindSlice && ft.Elem != nil && p.Value.Items != nil {
			ft, p = ft.Elem.Deref(), p.Value.Items
		}
		if ft.Named != nil && p.Value != nil {
			enumVarNames(p.Value, ft.Named.Enum)
		}
	}
}

// enumComponents gives the component of a Go enum type (a named scalar
// with constants) its enum and x-enum-varnames, so that generators make
// one typed enum per Go type, when every use of the component in the
// document narrows it to exactly those constants (a state machine's phase
// does). A use that admits other values keeps the component a plain
// string: validator does not restrict a named type to its constants.
func (b *docBuilder) enumComponents() {
	for _, t := range b.enumTypes() {
		name := b.componentName(schema.Ident(t))
		comp := b.doc.Components.Schemas[name]
		if comp == nil || comp.Value == nil || len(comp.Value.Enum) > 0 {
			continue
		}
		uses, ok := b.componentUses("#/components/schemas/" + name)
		if !ok || len(uses) == 0 {
			continue
		}
		values := make([]any, len(t.Enum))
		for i, e := range t.Enum {
			values[i] = e.Value
		}
		if !slices.ContainsFunc(uses, func(u *openapi3.Schema) bool { return !sameSet(u.Enum, values) }) {
			comp.Value.Enum = values
			enumVarNames(comp.Value, t.Enum)
			for _, u := range uses {
				u.Enum = nil
				delete(u.Extensions, "x-enum-varnames")
			}
		}
	}
}

// enumsListed, when set (by a test), sees every listing of the enum types.
var enumsListed func()

// enumTypes lists the model's string types that declare constants, in
// the order of the model's sorted types: found once per index, since a
// document per package that sorted every type of the model cost the
// packages times the types.
func (x *Index) enumTypes() []*model.Type {
	if x.enums == nil {
		if enumsListed != nil {
			enumsListed()
		}
		x.enums = []*model.Type{}
		for _, t := range x.set.Model.SortedTypes() {
			if t.TypeKind == model.TypeScalar && len(t.Enum) > 0 && t.Underlying != nil && t.Underlying.Kind == model.KindString {
				x.enums = append(x.enums, t)
			}
		}
	}
	return x.enums
}

// componentUses finds every schema of the document that refers to ref as
// allOf: [ref] (the form a property with siblings takes); ok is false
// when ref is also used bare, with nothing to narrow it.
func (b *docBuilder) componentUses(ref string) (uses []*openapi3.Schema, ok bool) {
	ok = true
	seen := map[*openapi3.Schema]bool{}
	var walk func(r *openapi3.SchemaRef)
	walk = func(r *openapi3.SchemaRef) {
		if r == nil {
			return
		}
		if r.Ref == ref {
			ok = false
			return
		}
		s := r.Value
		if r.Ref != "" || s == nil || seen[s] {
			return
		}
		seen[s] = true
		if len(s.AllOf) == 1 && s.AllOf[0].Ref == ref {
			uses = append(uses, s)
			return
		}
		for _, p := range s.Properties {
			walk(p)
		}
		for _, l := range []openapi3.SchemaRefs{s.AllOf, s.AnyOf, s.OneOf} {
			for _, x := range l {
				walk(x)
			}
		}
		walk(s.Items)
		walk(s.Not)
		walk(s.AdditionalProperties.Schema)
	}
	for _, c := range b.doc.Components.Schemas {
		walk(c)
	}
	return uses, ok
}

func sameSet(a, b []any) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

// freeForm says in so many words that an object without properties takes
// any member (additionalProperties: true), which JSON Schema already
// implies: generators otherwise make an empty struct of RawExtension,
// Unstructured or FieldsV1 and drop their content.
func freeForm(s *apiext.JSONSchemaProps) {
	if s.Type == "object" && len(s.Properties) == 0 && s.AdditionalProperties == nil {
		s.AdditionalProperties = &apiext.JSONSchemaPropsOrBool{Allows: true}
	}
}

// timeLayouts are the Go layouts of the time types whose JSON carries
// fractions of a second: ogen's clients write date-time as RFC 3339 in
// whole seconds unless x-ogen-time-format says otherwise.
var timeLayouts = map[string]string{
	"k8s.io/apimachinery/pkg/apis/meta/v1.MicroTime": "2006-01-02T15:04:05.000000Z07:00", // metav1.RFC3339Micro
	"time.Time": time.RFC3339Nano,
}

// timeFormat adds x-ogen-time-format to the component of such a type.
func timeFormat(id crd.TypeIdent, s *openapi3.Schema) {
	layout, ok := timeLayouts[id.Package.PkgPath+"."+id.Name]
	if !ok || s == nil {
		return
	}
	if s.Extensions == nil {
		s.Extensions = map[string]any{}
	}
	s.Extensions["x-ogen-time-format"] = layout
}

// zeroOrRange writes "zero or a range that excludes zero" (`omitempty,gte=1`
// on a number) as bounds that clients see and check, plus the gap they
// leave between zero and the range as a `not`: anyOf [0, [1, 9]] becomes
// minimum 0, maximum 9, not (0, 1). It reports false for any other anyOf.
func zeroOrRange(s *apiext.JSONSchemaProps) bool {
	if len(s.AnyOf) != 2 || !isZero(s.AnyOf[0]) || !onlyBounds(s.AnyOf[1]) {
		return false
	}
	r := s.AnyOf[1]
	var gap apiext.JSONSchemaProps
	zero := 0.0
	switch {
	case r.Minimum != nil && (*r.Minimum > 0 || *r.Minimum == 0 && r.ExclusiveMinimum):
		tighten(s, &zero, false, r.Maximum, r.ExclusiveMaximum)
		gap = apiext.JSONSchemaProps{Minimum: &zero, ExclusiveMinimum: true, Maximum: r.Minimum, ExclusiveMaximum: !r.ExclusiveMinimum}
	case r.Maximum != nil && (*r.Maximum < 0 || *r.Maximum == 0 && r.ExclusiveMaximum):
		tighten(s, r.Minimum, r.ExclusiveMinimum, &zero, false)
		gap = apiext.JSONSchemaProps{Minimum: r.Maximum, ExclusiveMinimum: !r.ExclusiveMaximum, Maximum: &zero, ExclusiveMaximum: true}
	default:
		return false
	}
	s.AnyOf = nil
	if *gap.Minimum == *gap.Maximum && (gap.ExclusiveMinimum || gap.ExclusiveMaximum) {
		return true // nothing between zero and the range
	}
	if s.Not == nil {
		s.Not = &gap
	} else {
		s.AllOf = append(s.AllOf, apiext.JSONSchemaProps{Not: &gap})
	}
	return true
}

// isZero reports the schemas of the zero number: enum [0] or [0, 0].
func isZero(z apiext.JSONSchemaProps) bool {
	if len(z.Enum) == 1 && string(z.Enum[0].Raw) == "0" {
		z.Enum = nil
		return reflect.DeepEqual(z, apiext.JSONSchemaProps{})
	}
	if z.Minimum == nil || z.Maximum == nil || *z.Minimum != 0 || *z.Maximum != 0 || z.ExclusiveMinimum || z.ExclusiveMaximum {
		return false
	}
	z.Minimum, z.Maximum = nil, nil
	return reflect.DeepEqual(z, apiext.JSONSchemaProps{})
}

// onlyBounds reports a schema with bounds and nothing else.
func onlyBounds(r apiext.JSONSchemaProps) bool {
	if r.Minimum == nil && r.Maximum == nil {
		return false
	}
	r.Minimum, r.Maximum, r.ExclusiveMinimum, r.ExclusiveMaximum = nil, nil, false, false
	return reflect.DeepEqual(r, apiext.JSONSchemaProps{})
}

// tighten intersects s's bounds with [lo, hi] (nil is unbounded).
func tighten(s *apiext.JSONSchemaProps, lo *float64, loExcl bool, hi *float64, hiExcl bool) {
	if lo != nil && (s.Minimum == nil || *lo > *s.Minimum || *lo == *s.Minimum && loExcl) {
		v := *lo
		s.Minimum, s.ExclusiveMinimum = &v, loExcl
	}
	if hi != nil && (s.Maximum == nil || *hi < *s.Maximum || *hi == *s.Maximum && hiExcl) {
		v := *hi
		s.Maximum, s.ExclusiveMaximum = &v, hiExcl
	}
}
