package openapi

import (
	"encoding"
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/modelgen/modelgen/internal/yamlout"
)

// jsonTree returns the value yamlout.Decode (numbers typed as yamlout's
// Encode types them) reads from json.Marshal(doc), without writing and
// reading the JSON text: kin-openapi's MarshalJSON methods are
// json.Marshal(MarshalYAML()) (yamlMarshalers lists those read to be so),
// so the tree is their MarshalYAML values with encoding/json's rules for
// the rest (nil slices and maps are null, numbers as their JSON text reads
// back). Where it meets anything else (a struct, a type of another
// package with its own marshaller, bytes, a string that is not UTF-8,
// NaN) it reports false, and the caller takes the JSON path.
func jsonTree(doc *openapi3.T) (any, bool) {
	return treeOf(reflect.ValueOf(doc), level{})
}

// level is how deep treeOf is: in JSON objects and arrays (json.Decoder
// refuses more than 10000) and in calls (a cycle of schemas would recurse
// for ever). Past either bound the document takes the JSON path, which
// fails there as it did before.
type level struct{ nest, depth int }

const (
	maxNest  = 10000
	maxDepth = 100000
)

func (l level) down() level { return level{l.nest, l.depth + 1} }
func (l level) over() bool  { return l.nest > maxNest || l.depth > maxDepth }
func (l level) in() level   { return level{l.nest + 1, l.depth + 1} }

// yamlMarshalers are the openapi3 types whose MarshalJSON is
// `x, err := v.MarshalYAML(); ...; return json.Marshal(x)` in
// kin-openapi v0.153.0 (Header, which defers to its Parameter, and
// FieldLocations, which has no MarshalYAML, are not).
var yamlMarshalers = map[reflect.Type]bool{}

func init() {
	for _, v := range []any{
		openapi3.T{}, openapi3.Components{}, openapi3.Contact{}, openapi3.Discriminator{},
		openapi3.Encoding{}, openapi3.Example{}, openapi3.ExternalDocs{}, openapi3.Info{},
		openapi3.License{}, openapi3.Link{}, openapi3.Responses{}, openapi3.Callback{},
		openapi3.Paths{}, openapi3.MediaType{}, openapi3.Operation{}, openapi3.Parameter{},
		openapi3.PathItem{}, openapi3.Ref{}, openapi3.CallbackRef{}, openapi3.ExampleRef{},
		openapi3.HeaderRef{}, openapi3.LinkRef{}, openapi3.ParameterRef{}, openapi3.RequestBodyRef{},
		openapi3.ResponseRef{}, openapi3.SchemaRef{}, openapi3.SecuritySchemeRef{},
		openapi3.RequestBody{}, openapi3.Response{}, openapi3.Types{}, openapi3.BoolSchema{},
		openapi3.ExclusiveBound{}, openapi3.Schema{}, openapi3.SecurityScheme{},
		openapi3.OAuthFlows{}, openapi3.OAuthFlow{}, openapi3.Server{}, openapi3.ServerVariable{},
		openapi3.Tag{}, openapi3.XML{},
	} {
		yamlMarshalers[reflect.TypeOf(v)] = true
	}
}

type yamlMarshaler interface{ MarshalYAML() (any, error) }

// direct is whether schemas take schemaTree rather than their MarshalYAML;
// a test turns it off to compare the two.
var direct = true

var (
	jsonMarshalerType = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
	jsonNumberType    = reflect.TypeFor[json.Number]()
)

// isJSONNumber reports whether s is a JSON number literal (json.Marshal
// fails on a json.Number that is not).
func isJSONNumber(s string) bool {
	return s != "" && (s[0] == '-' || s[0] >= '0' && s[0] <= '9') && json.Valid([]byte(s))
}

// treeOf follows encoding/json's choice of encoder for v (newTypeEncoder:
// an addressable value whose pointer has MarshalJSON uses it, then the
// type's own MarshalJSON, then TextMarshaler, then its kind).
func treeOf(v reflect.Value, l level) (any, bool) {
	if !v.IsValid() {
		return nil, true
	}
	if l.over() {
		return nil, false
	}
	t := v.Type()
	if t.Kind() != reflect.Pointer && v.CanAddr() && reflect.PointerTo(t).Implements(jsonMarshalerType) {
		return marshalerTree(v.Addr(), l)
	}
	if t.Implements(jsonMarshalerType) {
		if (t.Kind() == reflect.Pointer || t.Kind() == reflect.Interface) && v.IsNil() {
			return nil, true
		}
		return marshalerTree(v, l)
	}
	if t.Implements(textMarshalerType) || t.Kind() != reflect.Pointer && reflect.PointerTo(t).Implements(textMarshalerType) {
		return nil, false
	}
	switch t.Kind() {
	case reflect.Interface, reflect.Pointer:
		if v.IsNil() {
			return nil, true
		}
		return treeOf(v.Elem(), l.down())
	case reflect.Map:
		return mapTree(v, l.in())
	case reflect.Slice:
		if v.IsNil() {
			return nil, true
		}
		return listTree(v, l.in())
	case reflect.Array:
		return listTree(v, l.in())
	case reflect.String:
		s := v.String()
		if t == jsonNumberType { // written as the number it holds
			if s == "" {
				s = "0"
			}
			return yamlout.Number(s), isJSONNumber(s)
		}
		return s, utf8.ValidString(s) // json.Marshal writes U+FFFD for each bad byte
	case reflect.Bool:
		return v.Bool(), true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return yamlout.Number(strconv.FormatInt(v.Int(), 10)), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return yamlout.Number(strconv.FormatUint(v.Uint(), 10)), true
	case reflect.Float32:
		return floatTree(v.Float(), 32)
	case reflect.Float64:
		return floatTree(v.Float(), 64)
	}
	return nil, false
}

// marshalerTree is the tree of a value whose MarshalJSON json.Marshal
// calls: the tree of its MarshalYAML value, for the types known to
// marshal that way.
func marshalerTree(v reflect.Value, l level) (any, bool) {
	base := v.Type()
	if base.Kind() == reflect.Pointer {
		base = base.Elem()
	}
	if !yamlMarshalers[base] {
		return nil, false
	}
	if direct {
		if s, ok := schemaValue(v, base); ok {
			return schemaTree(s, l)
		}
	}
	m, ok := v.Interface().(yamlMarshaler)
	if !ok { // a value whose MarshalYAML has a pointer receiver (Info)
		p := reflect.New(base)
		p.Elem().Set(v)
		m = p.Interface().(yamlMarshaler)
	}
	x, err := m.MarshalYAML()
	if err != nil {
		return nil, false
	}
	if x == nil { // json.Marshal(nil) is null, but ExclusiveBound writes nothing (an error)
		return nil, base != reflect.TypeFor[openapi3.ExclusiveBound]()
	}
	return treeOf(reflect.ValueOf(x), l.down())
}

func mapTree(v reflect.Value, l level) (any, bool) {
	if v.Type().Key().Kind() != reflect.String {
		return nil, false
	}
	if v.IsNil() {
		return nil, true
	}
	out := make(map[string]any, v.Len())
	for it := v.MapRange(); it.Next(); {
		k := it.Key().String()
		if !utf8.ValidString(k) {
			return nil, false
		}
		e, ok := treeOf(it.Value(), l)
		if !ok {
			return nil, false
		}
		out[k] = e
	}
	return out, true
}

func listTree(v reflect.Value, l level) (any, bool) {
	if v.Type().Elem().Kind() == reflect.Uint8 {
		return nil, false // base64 text in JSON
	}
	out := make([]any, v.Len())
	for i := range out {
		e, ok := treeOf(v.Index(i), l)
		if !ok {
			return nil, false
		}
		out[i] = e
	}
	return out, true
}

// floatTree formats f as encoding/json's floatEncoder does and reads the
// text back as a number.
func floatTree(f float64, bits int) (any, bool) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return nil, false // json.Marshal fails
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 {
		if bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	return yamlout.Number(strconv.FormatFloat(f, format, -1, bits)), true
}

var (
	schemaType    = reflect.TypeFor[openapi3.Schema]()
	schemaRefType = reflect.TypeFor[openapi3.SchemaRef]()
)

// schemaValue is the schema a Schema or an inline SchemaRef marshals as,
// for schemaTree; ok is false for a reference (written by kin-openapi's
// own MarshalYAML, with its siblings).
func schemaValue(v reflect.Value, base reflect.Type) (s *openapi3.Schema, ok bool) {
	switch base {
	case schemaType:
		if v.Kind() == reflect.Pointer {
			return v.Interface().(*openapi3.Schema), true
		}
		c := v.Interface().(openapi3.Schema)
		return &c, true
	case schemaRefType:
		var r *openapi3.SchemaRef
		if v.Kind() == reflect.Pointer {
			r = v.Interface().(*openapi3.SchemaRef)
		} else {
			c := v.Interface().(openapi3.SchemaRef)
			r = &c
		}
		if r.Ref != "" {
			return nil, false
		}
		return r.Value, true // nil: MarshalYAML's nil, written null
	}
	return nil, false
}

// schemaTree is treeOf of Schema.MarshalYAML's map (kin-openapi v0.153.0,
// schema.go) without that map: MarshalYAML makes one of 61 entries for
// every schema, which at thousands of kinds was a tenth of what a run
// allocated, and the tree then copied it. The entries and the test that
// decides each one are MarshalYAML's, in its order (a later one wins, as
// there); TestSchemaTreeIsMarshalYAMLs holds every field of Schema to the
// JSON encoding's bytes, so a field kin-openapi adds fails it.
func schemaTree(s *openapi3.Schema, l level) (any, bool) {
	if s == nil {
		return nil, true
	}
	if l.down().over() {
		return nil, false
	}
	if s.Always != nil {
		return *s.Always, true
	}
	in := l.down().in() // the map's, as mapTree's of MarshalYAML's map
	m := make(map[string]any, len(s.Extensions)+8)
	ok := true
	put := func(k string, x any) {
		if !ok {
			return
		}
		e, good := treeOf(reflect.ValueOf(x), in.down())
		m[k], ok = e, good
	}
	for k, x := range s.Extensions {
		if !utf8.ValidString(k) {
			return nil, false
		}
		put(k, x)
	}
	if x := s.OneOf; len(x) != 0 {
		put("oneOf", x)
	}
	if x := s.AnyOf; len(x) != 0 {
		put("anyOf", x)
	}
	if x := s.AllOf; len(x) != 0 {
		put("allOf", x)
	}
	if x := s.Not; x != nil {
		put("not", x)
	}
	if x := s.Type; !x.IsEmpty() {
		put("type", x)
	}
	if x := s.Title; len(x) != 0 {
		put("title", x)
	}
	if x := s.Format; len(x) != 0 {
		put("format", x)
	}
	if x := s.Description; len(x) != 0 {
		put("description", x)
	}
	if x := s.Enum; len(x) != 0 {
		put("enum", x)
	}
	if x := s.Default; x != nil {
		put("default", x)
	}
	if x := s.Example; x != nil {
		put("example", x)
	}
	if x := s.ExternalDocs; x != nil {
		put("externalDocs", x)
	}
	if x := s.UniqueItems; x {
		put("uniqueItems", x)
	}
	if x := s.ExclusiveMin; x.IsSet() {
		put("exclusiveMinimum", x)
	}
	if x := s.ExclusiveMax; x.IsSet() {
		put("exclusiveMaximum", x)
	}
	if x := s.Nullable; x {
		put("nullable", x)
	}
	if x := s.ReadOnly; x {
		put("readOnly", x)
	}
	if x := s.WriteOnly; x {
		put("writeOnly", x)
	}
	if x := s.AllowEmptyValue; x {
		put("allowEmptyValue", x)
	}
	if x := s.Deprecated; x {
		put("deprecated", x)
	}
	if x := s.XML; x != nil {
		put("xml", x)
	}
	if x := s.Min; x != nil {
		put("minimum", x)
	}
	if x := s.Max; x != nil {
		put("maximum", x)
	}
	if x := s.MultipleOf; x != nil {
		put("multipleOf", x)
	}
	if x := s.MinLength; x != 0 {
		put("minLength", x)
	}
	if x := s.MaxLength; x != nil {
		put("maxLength", x)
	}
	if x := s.Pattern; x != "" {
		put("pattern", x)
	}
	if x := s.MinItems; x != 0 {
		put("minItems", x)
	}
	if x := s.MaxItems; x != nil {
		put("maxItems", x)
	}
	if x := s.Items; x != nil {
		put("items", x)
	}
	if x := s.Required; len(x) != 0 {
		put("required", x)
	}
	if x := s.Properties; len(x) != 0 {
		put("properties", x)
	}
	if x := s.MinProps; x != 0 {
		put("minProperties", x)
	}
	if x := s.MaxProps; x != nil {
		put("maxProperties", x)
	}
	if x := s.AdditionalProperties; x.Has != nil || x.Schema != nil {
		put("additionalProperties", &x)
	}
	if x := s.Discriminator; x != nil {
		put("discriminator", x)
	}
	if x := s.Const; x != nil {
		put("const", x)
	}
	if x := s.Examples; len(x) != 0 {
		put("examples", x)
	}
	if x := s.PrefixItems; len(x) != 0 {
		put("prefixItems", x)
	}
	if x := s.Contains; x != nil {
		put("contains", x)
	}
	if x := s.MinContains; x != nil {
		put("minContains", x)
	}
	if x := s.MaxContains; x != nil {
		put("maxContains", x)
	}
	if x := s.PatternProperties; len(x) != 0 {
		put("patternProperties", x)
	}
	if x := s.DependentSchemas; len(x) != 0 {
		put("dependentSchemas", x)
	}
	if x := s.PropertyNames; x != nil {
		put("propertyNames", x)
	}
	if x := s.UnevaluatedItems; x.Has != nil || x.Schema != nil {
		put("unevaluatedItems", &x)
	}
	if x := s.UnevaluatedProperties; x.Has != nil || x.Schema != nil {
		put("unevaluatedProperties", &x)
	}
	if x := s.If; x != nil {
		put("if", x)
	}
	if x := s.Then; x != nil {
		put("then", x)
	}
	if x := s.Else; x != nil {
		put("else", x)
	}
	if x := s.DependentRequired; len(x) != 0 {
		dr := make(map[string]any, len(x))
		for name, names := range x {
			if names == nil {
				dr[name] = nil
			} else {
				dr[name] = names
			}
		}
		put("dependentRequired", dr)
	}
	if x := s.Defs; len(x) != 0 {
		put("$defs", x)
	}
	if x := s.SchemaDialect; x != "" {
		put("$schema", x)
	}
	if x := s.Comment; x != "" {
		put("$comment", x)
	}
	if x := s.SchemaID; x != "" {
		put("$id", x)
	}
	if x := s.Anchor; x != "" {
		put("$anchor", x)
	}
	if x := s.DynamicRef; x != "" {
		put("$dynamicRef", x)
	}
	if x := s.DynamicAnchor; x != "" {
		put("$dynamicAnchor", x)
	}
	if x := s.ContentMediaType; x != "" {
		put("contentMediaType", x)
	}
	if x := s.ContentEncoding; x != "" {
		put("contentEncoding", x)
	}
	if x := s.ContentSchema; x != nil {
		put("contentSchema", x)
	}
	if !ok {
		return nil, false
	}
	return m, true
}
