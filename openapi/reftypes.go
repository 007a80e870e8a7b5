package openapi

import (
	"maps"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// refSiblings gives the schemas of the form allOf: [$ref C] plus siblings
// (the form a property with a description, an extension or nullable takes,
// since OpenAPI 3.0 ignores a $ref's siblings) the shape third-party tools
// read as "a C", without changing which documents the schema accepts:
//   - nullable beside allOf needs C's type beside it: Ajv refuses to compile
//     `nullable` without `type`, and Redocly's recommended ruleset reports
//     it (nullable-type-sibling). A pointer to an enum type also lists the
//     enum's values with null, so that TypeScript generators (orval) type it
//     as those values or null rather than as any string, and a pointer to
//     a named list repeats the list's items, which an array must have;
//   - a `type` beside allOf that only repeats C's type is dropped, since
//     orval then types the property by the sibling (a plain string) rather
//     than by C (the enum of a state machine's phase).
//
// A C without a type (apiextensions JSON: any value) cannot be given one;
// such a nullable property keeps its shape (docs/openapi.md says so).
func refSiblings(doc *openapi3.T) {
	seen := map[*openapi3.Schema]bool{}
	var visit func(r *openapi3.SchemaRef)
	visit = func(r *openapi3.SchemaRef) {
		if r == nil || r.Ref != "" || r.Value == nil || seen[r.Value] {
			return
		}
		seen[r.Value] = true
		typeRefSibling(doc, r.Value)
		eachSchemaRef(r.Value, visit)
	}
	for _, name := range slices.Sorted(maps.Keys(doc.Components.Schemas)) {
		visit(doc.Components.Schemas[name])
	}
}

// typeRefSibling applies refSiblings' rules to one schema.
func typeRefSibling(doc *openapi3.T, s *openapi3.Schema) {
	if len(s.AllOf) != 1 || s.AllOf[0].Ref == "" {
		return
	}
	target := refTarget(doc, s.AllOf[0].Ref)
	if target == nil || target.Type == nil || len(*target.Type) != 1 {
		return
	}
	same := s.Type != nil && slices.Equal(*s.Type, *target.Type)
	switch {
	case s.Nullable && (same || s.Type == nil || len(*s.Type) == 0):
		s.Type = &openapi3.Types{(*target.Type)[0]}
		if s.Type.Is(openapi3.TypeArray) && s.Items == nil {
			s.Items = target.Items // OpenAPI asks an array for its items
		}
		if len(target.Enum) > 0 && len(s.Enum) == 0 {
			s.Enum = append(slices.Clone(target.Enum), nil)
		}
	case !s.Nullable && same:
		// allOf [C] already says the type; bounds beside it (minLength
		// from required) still apply to C's values only
		s.Type = nil
	}
}

// refTarget is the component a reference names, following references
// between components.
func refTarget(doc *openapi3.T, ref string) *openapi3.Schema {
	for range 8 {
		name, ok := strings.CutPrefix(ref, "#/components/schemas/")
		if !ok {
			return nil
		}
		c := doc.Components.Schemas[name]
		if c == nil {
			return nil
		}
		if c.Ref == "" {
			return c.Value
		}
		ref = c.Ref
	}
	return nil
}
