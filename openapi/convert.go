package openapi

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3"
	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// toKin gives a component's schema kin-openapi's form: what json.Marshal
// of the schema followed by SchemaRef.UnmarshalJSON gives, built directly
// for the schemas the converter knows every field of, and through that
// round trip for any other (a field it does not convert, a string that is
// not UTF-8, a number JSON would change), so the result is always the
// round trip's. The round trip was a sixth of the document builder's
// allocations. The result may share slices with s, which the caller no
// longer reads.
// direct says the round trip was not needed.
func toKin(name string, s *apiext.JSONSchemaProps) (ref *openapi3.SchemaRef, direct bool, err error) {
	c := &converter{}
	if ref := c.ref(s); !c.failed {
		return ref, true, nil
	}
	ref, err = roundTrip(name, s)
	return ref, false, err
}

// roundTrip converts the schema of component name through its JSON, as
// kin-openapi reads one.
func roundTrip(name string, s *apiext.JSONSchemaProps) (*openapi3.SchemaRef, error) {
	js, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	ref := &openapi3.SchemaRef{}
	if err := ref.UnmarshalJSON(js); err != nil {
		return nil, fmt.Errorf("schema of %s: %w", name, err)
	}
	return ref, nil
}

// converter builds kin-openapi schemas; failed says a schema needs the
// round trip.
type converter struct{ failed bool }

func (c *converter) ref(s *apiext.JSONSchemaProps) *openapi3.SchemaRef {
	if s.Ref != nil {
		// a bare reference (rewriteRefs moves siblings into allOf)
		if *s.Ref == "" || !reflect.DeepEqual(*s, apiext.JSONSchemaProps{Ref: s.Ref}) {
			c.failed = true
			return nil
		}
		return &openapi3.SchemaRef{Ref: c.str(*s.Ref)}
	}
	return &openapi3.SchemaRef{Value: c.schema(s)}
}

func (c *converter) schema(s *apiext.JSONSchemaProps) *openapi3.Schema {
	if s.ID != "" || s.Schema != "" || len(s.PatternProperties) > 0 || len(s.Dependencies) > 0 ||
		s.AdditionalItems != nil || len(s.Definitions) > 0 || s.ExternalDocs != nil {
		c.failed = true
		return nil
	}
	o := &openapi3.Schema{
		Title: c.str(s.Title), Format: c.str(s.Format), Description: c.str(s.Description), Pattern: c.str(s.Pattern),
		UniqueItems: s.UniqueItems, Nullable: s.Nullable,
		Default: c.raw(s.Default), Example: c.raw(s.Example),
		Min: c.float(s.Minimum), Max: c.float(s.Maximum), MultipleOf: c.float(s.MultipleOf),
		MinLength: c.count(s.MinLength), MaxLength: c.bound(s.MaxLength),
		MinItems: c.count(s.MinItems), MaxItems: c.bound(s.MaxItems),
		MinProps: c.count(s.MinProperties), MaxProps: c.bound(s.MaxProperties),
	}
	if s.Type != "" {
		o.Type = &openapi3.Types{c.str(s.Type)}
	}
	if s.ExclusiveMinimum {
		o.ExclusiveMin.Bool = pointerTo(true)
	}
	if s.ExclusiveMaximum {
		o.ExclusiveMax.Bool = pointerTo(true)
	}
	if len(s.Enum) > 0 {
		o.Enum = make([]any, len(s.Enum))
		for i := range s.Enum {
			o.Enum[i] = c.raw(&s.Enum[i])
		}
	}
	if len(s.Required) > 0 {
		for _, r := range s.Required {
			c.str(r)
		}
		o.Required = s.Required
	}
	if s.Items != nil {
		if len(s.Items.JSONSchemas) > 0 || s.Items.Schema == nil {
			c.failed = true
			return nil
		}
		o.Items = c.ref(s.Items.Schema)
	}
	o.AllOf, o.OneOf, o.AnyOf = c.refs(s.AllOf), c.refs(s.OneOf), c.refs(s.AnyOf)
	if s.Not != nil {
		o.Not = c.ref(s.Not)
	}
	if len(s.Properties) > 0 {
		o.Properties = make(openapi3.Schemas, len(s.Properties))
		for name, p := range s.Properties {
			o.Properties[c.str(name)] = c.ref(&p)
		}
	}
	if a := s.AdditionalProperties; a != nil {
		if a.Schema != nil {
			o.AdditionalProperties.Schema = c.ref(a.Schema)
		} else {
			o.AdditionalProperties.Has = pointerTo(a.Allows)
		}
	}
	o.Extensions = c.extensions(s)
	return o
}

func (c *converter) refs(l []apiext.JSONSchemaProps) openapi3.SchemaRefs {
	if len(l) == 0 {
		return nil
	}
	out := make(openapi3.SchemaRefs, len(l))
	for i := range l {
		out[i] = c.ref(&l[i])
	}
	return out
}

// extensions are the x-kubernetes-* keys, as encoding/json decodes them
// into kin-openapi's Extensions.
func (c *converter) extensions(s *apiext.JSONSchemaProps) map[string]any {
	ext := map[string]any{}
	if s.XPreserveUnknownFields != nil {
		ext["x-kubernetes-preserve-unknown-fields"] = *s.XPreserveUnknownFields
	}
	if s.XEmbeddedResource {
		ext["x-kubernetes-embedded-resource"] = true
	}
	if s.XIntOrString {
		ext["x-kubernetes-int-or-string"] = true
	}
	if len(s.XListMapKeys) > 0 {
		keys := make([]any, len(s.XListMapKeys))
		for i, k := range s.XListMapKeys {
			keys[i] = c.str(k)
		}
		ext["x-kubernetes-list-map-keys"] = keys
	}
	if s.XListType != nil {
		ext["x-kubernetes-list-type"] = c.str(*s.XListType)
	}
	if s.XMapType != nil {
		ext["x-kubernetes-map-type"] = c.str(*s.XMapType)
	}
	if len(s.XValidations) > 0 {
		// rare enough to decode as the round trip does
		js, err := json.Marshal(s.XValidations)
		var rules any
		if err != nil || json.Unmarshal(js, &rules) != nil {
			c.failed = true
		}
		ext["x-kubernetes-validations"] = rules
	}
	if len(ext) == 0 {
		return nil
	}
	return ext
}

// str is a string JSON keeps as it is (encoding/json replaces bytes that
// are not UTF-8).
func (c *converter) str(s string) string {
	if !utf8.ValidString(s) {
		c.failed = true
	}
	return s
}

// raw decodes a JSON value (default, example, an enum member) as the
// round trip does: empty is null.
func (c *converter) raw(j *apiext.JSON) any {
	if j == nil || len(j.Raw) == 0 {
		return nil
	}
	var v any
	if err := json.Unmarshal(j.Raw, &v); err != nil {
		c.failed = true
	}
	return v
}

func (c *converter) float(f *float64) *float64 {
	if f == nil {
		return nil
	}
	if math.IsNaN(*f) || math.IsInf(*f, 0) {
		c.failed = true // json.Marshal refuses them
	}
	return pointerTo(*f)
}

// maxExact is the largest integer every step of the round trip keeps
// exactly (additionalProperties is decoded through float64 once more).
const maxExact = 1 << 53

func (c *converter) count(n *int64) uint64 {
	if n == nil {
		return 0
	}
	if *n < 0 || *n > maxExact {
		c.failed = true // refused by a uint64, or changed by a float64
		return 0
	}
	return uint64(*n)
}

func (c *converter) bound(n *int64) *uint64 {
	if n == nil {
		return nil
	}
	return pointerTo(c.count(n))
}

func pointerTo[T any](v T) *T { return &v }
