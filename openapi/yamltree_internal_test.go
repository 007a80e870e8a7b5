package openapi

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/modelgen/modelgen/internal/yamlout"
)

// ptrMarshaler has MarshalJSON on its pointer: json.Marshal calls it only
// where the value is addressable.
type ptrMarshaler struct{ A int }

func (*ptrMarshaler) MarshalJSON() ([]byte, error) { return []byte(`"custom"`), nil }

// textOnly is written by json.Marshal as its MarshalText.
type textOnly string

func (textOnly) MarshalText() ([]byte, error) { return []byte("text"), nil }

// TestTreeFollowsEncodingJSON: values the tree builds itself read as
// their JSON text does (numbers typed from their text, nil slices and maps
// null, kin-openapi marshallers through MarshalYAML), and values it does
// not know are refused, not guessed.
func TestTreeFollowsEncodingJSON(t *testing.T) {
	min1, big := 1.0, 1e21
	for name, v := range map[string]any{
		"integral float is an int":        map[string]any{"f": 1.0, "g": math.Copysign(0, -1)},
		"float32 reads as its text":       map[string]any{"f": float32(0.1)},
		"a large float keeps e":           map[string]any{"f": 1e21, "g": 1e-7},
		"a float that fits a uint64":      map[string]any{"f": 1e19},
		"a float past uint64":             map[string]any{"f": 1e20},
		"ints of every size":              map[string]any{"a": int8(-3), "b": uint64(math.MaxUint64), "c": int64(math.MinInt64), "d": uint32(7)},
		"nil and empty collections":       map[string]any{"a": []string(nil), "b": []string{}, "c": map[string]int(nil), "d": map[string]int{}, "e": (*int)(nil)},
		"named strings and arrays":        map[string]any{"t": openapi3.Types{"string"}, "a": [2]bool{true, false}},
		"a reference to nothing is null":  map[string]any{"r": openapi3.SchemaRef{}, "b": openapi3.BoolSchema{}},
		"Types in a list are addressable": []openapi3.Types{{"string"}, {"string", "null"}},
		"json.Number is its number":       map[string]any{"a": json.Number("12"), "b": json.Number("1.50"), "c": json.Number("")},
		"Info: MarshalYAML on pointer":    map[string]any{"info": openapi3.Info{Title: "t", Version: "1"}, "p": &openapi3.Info{Title: "p"}},
		"schemas with bounds and refs": &openapi3.Schema{
			Type: &openapi3.Types{"number"}, Min: &min1, Max: &big, ExclusiveMin: openapi3.ExclusiveBound{Bool: ptr(true)},
			Properties:           openapi3.Schemas{"a": {Ref: "#/components/schemas/A"}, "b": {Value: &openapi3.Schema{Enum: []any{"x", 2, nil}}}},
			AdditionalProperties: openapi3.AdditionalProperties{Has: ptr(false)},
			Extensions:           map[string]any{"x-a": map[string]any{"n": json.Number("12")}, "x-b": []any{1.5}},
		},
	} {
		tree, ok := treeOf(reflect.ValueOf(v), level{})
		if !ok {
			t.Errorf("%s: refused", name)
			continue
		}
		if got, want := EncodeTree(t, tree), JSONYAML(t, v); !bytes.Equal(got, want) {
			t.Errorf("%s:\n got %q\nwant %q", name, got, want)
		}
	}
	for name, v := range map[string]any{
		"a struct":                       struct{ A int }{1},
		"bytes":                          []byte("x"),
		"a string that is not UTF-8":     map[string]any{"s": "\xff"},
		"a key that is not UTF-8":        map[string]any{"\xff": 1},
		"NaN":                            math.NaN(),
		"a map with int keys":            map[int]string{1: "a"},
		"a pointer marshaller in a list": []ptrMarshaler{{1}},
		"a pointer marshaller":           &ptrMarshaler{1},
		"a JSON marshaller":              time.Time{},
		"an unset exclusive bound":       map[string]any{"e": openapi3.ExclusiveBound{}},
		"a text marshaller":              map[string]any{"t": textOnly("x")},
		"a json.Number that is not one":  json.Number("1x"),
		"Header defers to Parameter":     &openapi3.Header{},
	} {
		if _, ok := treeOf(reflect.ValueOf(v), level{}); ok {
			t.Errorf("%s: taken, want refused", name)
		}
	}
}

func ptr[T any](v T) *T { return &v }

// TestTreeStopsAtItsBounds: a schema that contains itself inline would
// recurse for ever, and lists nested deeper than json.Decoder reads got
// an error on the JSON path; the tree gives both to that path.
func TestTreeStopsAtItsBounds(t *testing.T) {
	s := &openapi3.Schema{}
	s.Items = &openapi3.SchemaRef{Value: s}
	if _, ok := treeOf(reflect.ValueOf(s), level{}); ok {
		t.Fatal("a cycle gave a tree")
	}
	deep := any(1)
	for range maxNest + 1 {
		deep = []any{deep}
	}
	if _, ok := treeOf(reflect.ValueOf(deep), level{}); ok {
		t.Fatal("lists nested deeper than JSON reads gave a tree")
	}
	if _, ok := treeOf(reflect.ValueOf(deep.([]any)[0]), level{}); !ok {
		t.Fatal("lists nested as deep as JSON reads gave no tree")
	}
}

// TestSchemaTreeIsMarshalYAMLs: schemaTree gives, for a schema with each
// field of openapi3.Schema set in turn (and all of them at once, inline
// and behind a SchemaRef), the tree of Schema.MarshalYAML and the bytes of
// the JSON encoding. A field this test has no value for fails it, so a
// kin-openapi that adds one is caught here.
func TestSchemaTreeIsMarshalYAMLs(t *testing.T) {
	inner := &openapi3.SchemaRef{Value: &openapi3.Schema{Title: "inner", Type: &openapi3.Types{"string"}}}
	samples := map[reflect.Type]any{
		reflect.TypeFor[string]():                  "s: a\nb",
		reflect.TypeFor[bool]():                    true,
		reflect.TypeFor[uint64]():                  uint64(3),
		reflect.TypeFor[*uint64]():                 ptr(uint64(0)),
		reflect.TypeFor[*float64]():                ptr(-1.5),
		reflect.TypeFor[*bool]():                   ptr(false),
		reflect.TypeFor[any]():                     map[string]any{"k": []any{1, "two", nil}},
		reflect.TypeFor[[]any]():                   []any{"a", 2.5, true},
		reflect.TypeFor[[]string]():                []string{"r", "s"},
		reflect.TypeFor[map[string]any]():          map[string]any{"x-one": 1, "x-two": map[string]any{"n": json.Number("12")}, "type": "shadowed"},
		reflect.TypeFor[*openapi3.Types]():         &openapi3.Types{"string", "null"},
		reflect.TypeFor[openapi3.SchemaRefs]():     openapi3.SchemaRefs{inner, {Ref: "#/components/schemas/A"}},
		reflect.TypeFor[*openapi3.SchemaRef]():     inner,
		reflect.TypeFor[openapi3.Schemas]():        openapi3.Schemas{"p": inner, "q": {Ref: "#/components/schemas/Q"}, "r": {}},
		reflect.TypeFor[openapi3.ExclusiveBound](): openapi3.ExclusiveBound{Bool: ptr(true)},
		reflect.TypeFor[openapi3.BoolSchema]():     openapi3.BoolSchema{Schema: inner},
		reflect.TypeFor[*openapi3.XML]():           &openapi3.XML{Name: "x", Attribute: true},
		reflect.TypeFor[*openapi3.ExternalDocs]():  &openapi3.ExternalDocs{URL: "https://example.com"},
		reflect.TypeFor[*openapi3.Discriminator](): &openapi3.Discriminator{PropertyName: "kind"},
		reflect.TypeFor[map[string][]string]():     map[string][]string{"a": {"b"}, "n": nil},
	}
	skip := map[string]bool{"Origin": true} // json:"-" and not in MarshalYAML
	st := reflect.TypeFor[openapi3.Schema]()
	all := &openapi3.Schema{}
	cases := map[string]any{}
	for i := range st.NumField() {
		f := st.Field(i)
		if !f.IsExported() || skip[f.Name] {
			continue
		}
		sample, ok := samples[f.Type]
		if !ok {
			t.Fatalf("no sample for Schema.%s of type %s: give it one, and see that schemaTree writes it", f.Name, f.Type)
		}
		one := &openapi3.Schema{}
		reflect.ValueOf(one).Elem().Field(i).Set(reflect.ValueOf(sample))
		cases[f.Name] = one
		if f.Name != "Always" { // Always replaces the whole schema
			reflect.ValueOf(all).Elem().Field(i).Set(reflect.ValueOf(sample))
		}
	}
	cases["all fields"] = all
	cases["all fields, a value"] = *all
	cases["all fields behind a SchemaRef"] = openapi3.SchemaRef{Value: all}
	cases["a SchemaRef to nothing"] = &openapi3.SchemaRef{}
	cases["in a map"] = map[string]any{"s": all, "refs": openapi3.SchemaRefs{{Value: all}}}
	cases["a bad extension key"] = &openapi3.Schema{Extensions: map[string]any{"\xff": 1}}
	cases["a bad value inside"] = &openapi3.Schema{Properties: openapi3.Schemas{"p": {Value: &openapi3.Schema{Description: "\xff"}}}}
	for name, v := range cases {
		got, gotOK := treeOf(reflect.ValueOf(v), level{})
		direct = false
		want, wantOK := treeOf(reflect.ValueOf(v), level{})
		direct = true
		if gotOK != wantOK || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: schemaTree gives %v %#v, MarshalYAML's tree %v %#v", name, gotOK, got, wantOK, want)
			continue
		}
		if !gotOK {
			continue
		}
		if gotYAML, wantYAML := EncodeTree(t, got), JSONYAML(t, v); !bytes.Equal(gotYAML, wantYAML) {
			t.Errorf("%s:\n got %q\nwant %q", name, gotYAML, wantYAML)
		}
	}
	// The schemas take schemaTree, not MarshalYAML and a copy of its map:
	// fewer allocations for the same tree.
	allocs := func() float64 {
		return testing.AllocsPerRun(20, func() { treeOf(reflect.ValueOf(all), level{}) })
	}
	byFields := allocs()
	direct = false
	byMarshalYAML := allocs()
	direct = true
	if byFields >= byMarshalYAML {
		t.Errorf("the tree of a schema takes %.0f allocations, through MarshalYAML %.0f: schemas do not take schemaTree", byFields, byMarshalYAML)
	}
}

// JSONYAML is what the tree's bytes must be: json.Marshal's text of v,
// written as YAML by yamlout.FromJSON (the path the tree stands in for).
func JSONYAML(t *testing.T, v any) []byte {
	t.Helper()
	js, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	out, err := yamlout.FromJSON(js)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// EncodeTree is yamlout.Encode, failing the test on an error.
func EncodeTree(t *testing.T, tree any) []byte {
	t.Helper()
	out, err := yamlout.Encode(tree)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
