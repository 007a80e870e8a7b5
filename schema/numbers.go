package schema

import (
	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/modelgen/modelgen/model"
)

// numberFormat gives a number the format of its Go type in the OpenAPI
// document (float32 float, float64 double, small integers int32), down
// through pointers, slices and maps, so that client generators pick a Go
// type that holds every value: without it oapi-codegen makes a float64 a
// float32 and 999999.99 comes back as 1e6.
//
// CRDs keep controller-tools' output: the API server knows int32 and
// int64 but drops float and double (apiextensions-apiserver's
// validation/formats.go), and a format it drops is noise in a CRD.
func numberFormat(s *apiext.JSONSchemaProps, t *model.TypeRef, target model.Target) {
	t = t.Deref()
	if s == nil || t == nil || target != model.TargetOpenAPI {
		return
	}
	switch {
	case t.Kind == model.KindSlice && s.Items != nil:
		numberFormat(s.Items.Schema, t.Elem, target)
	case t.Kind == model.KindMap && s.AdditionalProperties != nil:
		numberFormat(s.AdditionalProperties.Schema, t.Elem, target)
	case t.Kind == model.KindInt && t.Unsigned && (t.Bits == 0 || t.Bits == 64) && s.Type == "integer":
		// controller-tools says int64, which refuses the upper half
		s.Format = "uint64"
	case s.Format != "":
	case t.Kind == model.KindFloat && s.Type == "number":
		s.Format = "double"
		if t.Bits == 32 {
			s.Format = "float"
		}
	case t.Kind == model.KindInt && s.Type == "integer":
		s.Format = intFormat(t)
	}
}

// intFormat is the narrowest OpenAPI integer format that holds every value
// of the Go type (uint32 needs int64; uint64 gets the uint64 format, which
// oapi-codegen and ogen map to uint64).
func intFormat(t *model.TypeRef) string {
	if t.Bits > 0 && t.Bits < 32 || t.Bits == 32 && !t.Unsigned {
		return "int32"
	}
	return "int64"
}
