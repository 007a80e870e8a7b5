package model

// JSON names: encoding/json's own rules for a field's json tag.

import (
	"go/types"
	"slices"
	"strings"
	"unicode"
)

// jsonName applies encoding/json's rules to a field's json tag: "-" skips
// it ("-," names it "-"); an empty name keeps the Go name, except on an
// embedded struct (or pointer to one), whose fields are promoted into the
// parent (Inline); an embedded field of another type is named by its type.
// k8s' ",inline" option means nothing to encoding/json: on an embedded
// struct it agrees with the empty name, elsewhere jsonOptions refuses it.
func jsonName(f *Field, promotes bool) (name string, inline, omitEmpty, omitZero, skip bool) {
	tag, ok := f.Tags.Get("json")
	if ok && tag.Value == "-" {
		return "", false, false, false, true
	}
	parts := strings.Split(tag.Value, ",")
	name = parts[0]
	if !validJSONName(name) {
		name = "" // encoding/json ignores the name (jsonOptions warns)
	}
	for _, opt := range parts[1:] {
		switch opt {
		case "omitempty":
			omitEmpty = true
		case "omitzero":
			omitZero = true
		}
	}
	if name == "" && f.Embedded && promotes {
		return "", true, omitEmpty, omitZero, false
	}
	if name == "" {
		name = f.GoName
	}
	return name, false, omitEmpty, omitZero, false
}

// promoted reports an embedded field type whose fields encoding/json
// promotes: a struct, or a pointer to one.
func promoted(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	_, ok := t.Underlying().(*types.Struct)
	return ok
}

// jsonOptions refuses the json tag options no schema can describe. A type
// with its own MarshalJSON and UnmarshalJSON is encoded by them: encoding/json
// never reads its fields' tags, so none of them is refused (kyverno v1.19.1's
// Any holds its value in a field tagged `json:",inline"`; controller-gen takes
// its schema from the markers of the fields that use it).
func (b *builder) jsonOptions(t *Type, f *Field, gt types.Type) {
	tag, ok := f.Tags.Get("json")
	if !ok || ownJSON(t) {
		return
	}
	parts := strings.Split(tag.Value, ",")
	if !validJSONName(parts[0]) {
		b.m.Diags.Warnf(tag.At(0), "json: encoding/json ignores the name %q (a name holds letters, digits and !#$%%&()*+-./:;<=>?@[]^_{|}~ and spaces only), so the property is %q", parts[0], f.JSONName)
	}
	off := len(parts[0]) + 1
	for _, opt := range parts[1:] {
		switch {
		case opt == "string" && quotable(gt):
			b.m.Diags.Errorf(tag.At(off), "json: %s.%s has the ,string option: encoding/json then reads the %s from inside a JSON string, which no schema here describes; drop the option, or make the field a string", t.Name, f.GoName, f.Type.GoType)
		case opt == "inline" && !(f.Embedded && promoted(gt)):
			b.m.Diags.Errorf(tag.At(off), "json: encoding/json inlines only an embedded struct, not %s.%s (it names it %q); embed the type, or drop ,inline", t.Name, f.GoName, f.JSONName)
		}
		off += len(opt) + 1
	}
}

// ownJSON reports a type whose pointer has both MarshalJSON and
// UnmarshalJSON: encoding/json hands its values to them both ways.
func ownJSON(t *Type) bool {
	return slices.Contains(t.Methods, "MarshalJSON") && slices.Contains(t.Methods, "UnmarshalJSON")
}

// validJSONName is encoding/json's isValidTag: the empty name, or letters,
// digits and the punctuation it allows (no quotes, no backslash, no comma).
func validJSONName(name string) bool {
	for _, c := range name {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}

// quotable reports the types encoding/json's ,string option applies to:
// strings, numbers and booleans, or a pointer to one.
func quotable(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&(types.IsBoolean|types.IsNumeric|types.IsString) != 0
}
