package openapi

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-tools/pkg/crd"
)

// rewriteRefs points controller-tools' #/definitions links at components
// and moves the siblings of a $ref into allOf (OpenAPI 3.0 ignores them
// otherwise). It walks the schema by structure, so a property may be named
// like any keyword ($ref, default, enum, properties...), and values
// (enum, default, example) are never taken for schemas.
func (b *docBuilder) rewriteRefs(s *apiext.JSONSchemaProps, from crd.TypeIdent) {
	if s == nil {
		return
	}
	b.eachSubschema(s, func(sub *apiext.JSONSchemaProps) { b.rewriteRefs(sub, from) })
	if s.Ref == nil {
		return
	}
	target := b.resolveLink(*s.Ref, from)
	s.Ref = nil
	if s.Type == "array" && s.Items == nil {
		// a field of a named slice type with list markers: the type
		// comes from the referenced schema, which also says its items
		// (OpenAPI refuses an array without items, even in allOf)
		s.Type = ""
	}
	ref := apiext.JSONSchemaProps{Ref: &target}
	if reflect.DeepEqual(*s, apiext.JSONSchemaProps{}) {
		*s = ref
		return
	}
	s.AllOf = append([]apiext.JSONSchemaProps{ref}, s.AllOf...)
}

// eachSubschema calls f on every schema directly below s, writing the
// (possibly changed) value back.
func (b *docBuilder) eachSubschema(s *apiext.JSONSchemaProps, f func(*apiext.JSONSchemaProps)) {
	// sorted: the first type a walk names gets the plain component name
	for _, m := range []map[string]apiext.JSONSchemaProps{s.Properties, s.PatternProperties, s.Definitions} {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			v := m[k]
			f(&v)
			m[k] = v
		}
	}
	for _, l := range [][]apiext.JSONSchemaProps{s.AllOf, s.AnyOf, s.OneOf} {
		for i := range l {
			f(&l[i])
		}
	}
	f(s.Not)
	if s.Items != nil {
		f(s.Items.Schema)
		for i := range s.Items.JSONSchemas {
			f(&s.Items.JSONSchemas[i])
		}
	}
	if s.AdditionalProperties != nil {
		f(s.AdditionalProperties.Schema)
	}
	if s.AdditionalItems != nil {
		f(s.AdditionalItems.Schema)
	}
	for _, k := range slices.Sorted(maps.Keys(s.Dependencies)) {
		d := s.Dependencies[k]
		f(d.Schema)
		s.Dependencies[k] = d
	}
}

// resolveLink turns a controller-tools link into a component reference,
// adding the component.
func (b *docBuilder) resolveLink(r string, from crd.TypeIdent) string {
	if !strings.Contains(r, "~0") {
		// a link without a package names a type of the same package
		r = crd.TypeRefLink(from.Package.PkgPath, strings.TrimPrefix(r, "#/definitions/"))
	}
	id, known := b.links[r]
	if !known {
		b.linkIndex() // the parser may have met new packages since
		if id, known = b.links[r]; !known {
			b.err = fmt.Errorf("reference to unknown type %s", r)
			return r
		}
	}
	return "#/components/schemas/" + b.add(id)
}
