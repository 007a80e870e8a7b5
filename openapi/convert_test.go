package openapi

import (
	"math"
	"os"

	"reflect"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/modelgen/modelgen/model"
	"github.com/modelgen/modelgen/schema"
)

// caseDirs names the cases under testdata (one directory each).
func caseDirs(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out
}

// TestConversionIsTheRoundTrip: every component of every case and of the
// example operators, as the document builder converts it, is what the JSON
// round trip (json.Marshal, then kin-openapi's UnmarshalJSON) gives, down
// to the last field; and every one of them took the direct path.
func TestConversionIsTheRoundTrip(t *testing.T) {
	var patterns []string
	for _, c := range caseDirs(t) {
		patterns = append(patterns, "./testdata/"+c)
	}
	dirs := map[string][]string{".": patterns}
	if !testing.Short() {
		dirs["../examples"] = []string{"./payments/...", "./sla/..."}
	}
	compared := 0
	checkConversion = func(name string, sc *apiext.JSONSchemaProps, got *openapi3.SchemaRef, direct bool) {
		compared++
		want, err := roundTrip(name, sc)
		if err != nil {
			t.Errorf("%s: the round trip fails: %v", name, err)
			return
		}
		if !direct {
			t.Errorf("%s: converted through JSON, not directly", name)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: converted\n%#v\nround trip\n%#v", name, got.Value, want.Value)
		}
	}
	defer func() { checkConversion = nil }()
	for dir, pats := range dirs {
		m, err := model.Load(model.Config{Dir: dir, Patterns: pats})
		if err != nil || m.Diags.HasErrors() {
			t.Fatalf("loading %s: %v %v", dir, err, m.Diags)
		}
		set := schema.Build(m, model.TargetOpenAPI)
		for _, pk := range m.Packages {
			if _, _, err := Build(set, []*model.Package{pk}, Info{Title: pk.Path, Version: "1.0.0"}); err != nil {
				t.Errorf("%s: %v", pk.Path, err)
			}
		}
	}
	if compared < 50 {
		t.Fatalf("only %d components compared", compared)
	}
	t.Logf("%d components compared", compared)
}

// TestConversionCases: schemas with each field the converter writes, and
// with what makes it take the round trip, give the round trip's result
// (or its error).
func TestConversionCases(t *testing.T) {
	i64 := func(n int64) *int64 { return &n }
	f64 := func(f float64) *float64 { return &f }
	str := func(s string) *string { return &s }
	js := func(s string) apiext.JSON { return apiext.JSON{Raw: []byte(s)} }
	jsp := func(s string) *apiext.JSON { j := js(s); return &j }
	reason := apiext.FieldValueForbidden
	leaf := apiext.JSONSchemaProps{Type: "string", MinLength: i64(1), MaxLength: i64(63), Pattern: `^[a-z]+$`}
	for _, c := range []struct {
		name   string
		s      apiext.JSONSchemaProps
		direct bool
	}{
		{"empty", apiext.JSONSchemaProps{}, true},
		{"scalars", apiext.JSONSchemaProps{Type: "integer", Format: "int32", Title: "t", Description: "d <&> \u2028", Minimum: f64(-1), ExclusiveMinimum: true, Maximum: f64(1e300), ExclusiveMaximum: true, MultipleOf: f64(0.5), Nullable: true}, true},
		{"negative zero", apiext.JSONSchemaProps{Type: "number", Minimum: f64(math.Copysign(0, -1)), Maximum: f64(0)}, true},
		{"zero bounds", apiext.JSONSchemaProps{Type: "string", MinLength: i64(0), MaxLength: i64(0)}, true},
		{"values", apiext.JSONSchemaProps{Enum: []apiext.JSON{js(`"a"`), js(`1.50`), js(`{"k":[1,"x",null]}`), js(`true`), {}}, Default: jsp(`{"a": 1}`), Example: jsp(`[1, 2]`)}, true},
		{"empty default", apiext.JSONSchemaProps{Default: &apiext.JSON{}}, true},
		{"structure", apiext.JSONSchemaProps{
			Type: "object", Required: []string{"a", "b"}, MinProperties: i64(1), MaxProperties: i64(9),
			Properties: map[string]apiext.JSONSchemaProps{
				"a": leaf,
				"b": {Type: "array", MinItems: i64(1), MaxItems: i64(3), UniqueItems: true, Items: &apiext.JSONSchemaPropsOrArray{Schema: &leaf}},
				"c": {Ref: str("#/components/schemas/C")},
				"d": {AllOf: []apiext.JSONSchemaProps{{Ref: str("#/components/schemas/D")}, {Description: "x"}}},
				"e": {AnyOf: []apiext.JSONSchemaProps{{Type: "integer"}, {Type: "string"}}, OneOf: []apiext.JSONSchemaProps{leaf}, Not: &apiext.JSONSchemaProps{Enum: []apiext.JSON{js(`0`)}}},
				"f": {Type: "object", AdditionalProperties: &apiext.JSONSchemaPropsOrBool{Allows: true}},
				"g": {Type: "object", AdditionalProperties: &apiext.JSONSchemaPropsOrBool{Allows: false}},
				"h": {Type: "object", AdditionalProperties: &apiext.JSONSchemaPropsOrBool{Allows: true, Schema: &apiext.JSONSchemaProps{Type: "integer", Maximum: f64(2.5), MaxLength: i64(1 << 53), Enum: []apiext.JSON{js(`1e2`)}, XListType: str("set")}}},
				"i": {Type: "object", AdditionalProperties: &apiext.JSONSchemaPropsOrBool{Schema: &apiext.JSONSchemaProps{}}},
				"j": {Type: "object", AdditionalProperties: &apiext.JSONSchemaPropsOrBool{Schema: &apiext.JSONSchemaProps{Ref: str("#/components/schemas/J")}}},
			},
		}, true},
		{"extensions", apiext.JSONSchemaProps{
			XPreserveUnknownFields: new(bool), XEmbeddedResource: true, XIntOrString: true,
			XListMapKeys: []string{"name", "port"}, XListType: str("map"), XMapType: str(""),
			XValidations: apiext.ValidationRules{{Rule: "self.a < self.b", Message: "m", MessageExpression: "'x'", Reason: &reason, FieldPath: ".a", OptionalOldSelf: new(bool)}, {Rule: "true"}},
		}, true},
		{"preserve unknown fields", apiext.JSONSchemaProps{XPreserveUnknownFields: func() *bool { b := true; return &b }()}, true},
		{"id", apiext.JSONSchemaProps{ID: "x"}, false},
		{"$schema", apiext.JSONSchemaProps{Schema: "http://json-schema.org/draft-04/schema#"}, false},
		{"pattern properties", apiext.JSONSchemaProps{PatternProperties: map[string]apiext.JSONSchemaProps{"^a": {}}}, false},
		{"definitions", apiext.JSONSchemaProps{Definitions: apiext.JSONSchemaDefinitions{"a": {}}}, false},
		{"dependencies", apiext.JSONSchemaProps{Dependencies: apiext.JSONSchemaDependencies{"a": {Property: []string{"b"}}}}, false},
		{"additional items", apiext.JSONSchemaProps{AdditionalItems: &apiext.JSONSchemaPropsOrBool{Allows: true}}, false},
		{"external docs", apiext.JSONSchemaProps{ExternalDocs: &apiext.ExternalDocumentation{URL: "u"}}, false},
		{"tuple items", apiext.JSONSchemaProps{Items: &apiext.JSONSchemaPropsOrArray{JSONSchemas: []apiext.JSONSchemaProps{leaf}}}, false},
		{"null items", apiext.JSONSchemaProps{Items: &apiext.JSONSchemaPropsOrArray{}}, false},
		{"ref with siblings", apiext.JSONSchemaProps{Properties: map[string]apiext.JSONSchemaProps{"a": {Ref: str("#/components/schemas/A"), Description: "d"}}}, false},
		{"empty ref", apiext.JSONSchemaProps{Ref: str("")}, false},
		{"not UTF-8", apiext.JSONSchemaProps{Description: "a\xffb"}, false},
		{"property not UTF-8", apiext.JSONSchemaProps{Properties: map[string]apiext.JSONSchemaProps{"a\xff": {}}}, false},
		{"beyond float64's integers", apiext.JSONSchemaProps{AdditionalProperties: &apiext.JSONSchemaPropsOrBool{Schema: &apiext.JSONSchemaProps{MaxLength: i64(1<<53 + 1)}}}, false},
		{"negative length", apiext.JSONSchemaProps{MinLength: i64(-1)}, false},
		{"NaN", apiext.JSONSchemaProps{Maximum: f64(math.NaN())}, false},
		{"invalid enum", apiext.JSONSchemaProps{Enum: []apiext.JSON{js(`{`)}}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, direct, err := toKin("T", &c.s)
			want, wantErr := roundTrip("T", &c.s)
			if direct != c.direct {
				t.Errorf("direct %v, want %v", direct, c.direct)
			}
			if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
				t.Fatalf("error %v, the round trip's %v", err, wantErr)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("converted\n%s\nround trip\n%s", dump(got), dump(want))
			}
		})
	}
}

func dump(r *openapi3.SchemaRef) string {
	if r == nil {
		return "<nil>"
	}
	y, err := r.MarshalJSON()
	if err != nil {
		return err.Error()
	}
	return strings.TrimSpace(string(y))
}
