package schema

import (
	"reflect"
	"sort"
	"strconv"
	"strings"

	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/modelgen/modelgen/model"
)

// jsonTags makes controller-tools see each field of a struct as
// encoding/json does, as the model resolved it: it reads only the name and
// the inline option of a json tag, where an empty name on a named field
// would mean inline to it ("Named" to encoding/json), unexported fields
// would be properties, an untagged embedded string would be inlined, and a
// field that loses its JSON name to another would stay. Each field's json
// tag is rewritten to the model's name (or "-", or ",inline"), and the
// fields encoding/json ignores are dropped.
func jsonTags(t *model.Type, info *markers.TypeInfo) {
	if info == nil || t.TypeKind != model.TypeStruct {
		return
	}
	byIndex := map[int]*model.Field{}
	for _, f := range t.Fields {
		byIndex[f.Index] = f
	}
	kept := info.Fields[:0:0]
	for i, fi := range info.Fields {
		f := byIndex[i]
		if f == nil {
			continue // encoding/json ignores it
		}
		fi.Tag = canonicalTag(f)
		kept = append(kept, fi)
	}
	info.Fields = kept
}

// canonicalTag is the field's struct tag with its json key rewritten.
func canonicalTag(f *model.Field) reflect.StructTag {
	json := f.JSONName
	switch {
	case f.Skip:
		json = "-"
	case f.Inline:
		json = ",inline"
	case json == "-":
		json = "-," // the name "-", not a skipped field
	}
	if !f.Skip && f.OmitEmpty {
		json += ",omitempty"
	}
	if !f.Skip && f.OmitZero {
		json += ",omitzero"
	}
	tags := make(model.Tags, 0, len(f.Tags))
	for _, t := range f.Tags {
		if t.Key != "json" {
			tags = append(tags, t)
		}
	}
	sort.Slice(tags, func(i, j int) bool { return tags[i].Key < tags[j].Key })
	parts := []string{"json:" + strconv.Quote(json)}
	for _, t := range tags {
		parts = append(parts, t.Key+":"+strconv.Quote(t.Value))
	}
	return reflect.StructTag(strings.Join(parts, " "))
}

// pointerEmbeds refuses a struct embedded by pointer whose schema requires
// fields: when all of them are absent encoding/json leaves the pointer nil
// and validator checks nothing, but the parent's schema (which promotes the
// embedded properties) would still require them.
func (s *Set) pointerEmbeds(t *model.Type) {
	for _, f := range t.Fields {
		if !f.Inline || f.Type.Kind != model.KindPointer || f.Type.Elem == nil || f.Type.Elem.Named == nil {
			continue
		}
		inner := s.Parser.Schemata[Ident(f.Type.Elem.Named)]
		if len(inner.Required) > 0 {
			s.Diags.Errorf(f.Pos, "json: %s embeds *%s, whose schema requires %s; encoding/json leaves the pointer nil when they are absent, which the promoted properties cannot say: embed %s by value, or make those fields optional (omitempty)", t.Name, f.Type.Elem.Named.Name, strings.Join(inner.Required, ", "), f.Type.Elem.Named.Name)
		}
	}
}

// namedBytes undoes controller-tools' `type: array` beside a reference to a
// named byte slice (`type Blob []byte`): controller-tools types every
// reference to a named slice as an array, for list markers, but a byte
// slice is a base64 string, and flattening the two fails with "conflicting
// types in allOf branches". The reference alone says the type.
func (s *Set) namedBytes(types []*model.Type) {
	for _, t := range types {
		sc, ok := s.Parser.Schemata[Ident(t)]
		if !ok {
			continue
		}
		crd.EditSchema(&sc, bytesRefVisitor{s, t})
		s.Parser.Schemata[Ident(t)] = sc
	}
}

type bytesRefVisitor struct {
	s     *Set
	owner *model.Type
}

func (v bytesRefVisitor) Visit(sc *apiext.JSONSchemaProps) crd.SchemaVisitor {
	if sc != nil && v.s.Target == model.TargetOpenAPI && sc.Format == "byte" && sc.Pattern == "" {
		// wherever a []byte is (a field, an element, a named type), the
		// OpenAPI document says what encoding/json decodes (see
		// base64Pattern)
		sc.Pattern = base64Pattern
	}
	if sc == nil || sc.Ref == nil || sc.Type != "array" || sc.Items != nil {
		return v
	}
	if u := v.s.refType(*sc.Ref, v.owner); u != nil && u.Underlying != nil && u.Underlying.Kind == model.KindBytes {
		sc.Type = ""
	}
	return v
}
