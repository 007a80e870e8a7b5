package model

import (
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/go-playground/validator/v10"
)

// The zero value decides what a schema must say: a missing field is the
// zero value to validator, and omitempty lets it through. These ask
// validator itself.

// GuardType is the type of the JSON value the level's omit keyword lets
// past the checks written after it, or nil when that is only an absent
// field: omitempty skips nil and the zero value of a non-nillable value;
// omitzero also skips a pointer to the zero value and an empty slice or map;
// omitnil skips nil only, so it changes nothing on a string or a number.
func GuardType(lv *Level) *TypeRef {
	switch lv.Omit {
	case OmitEmpty:
		if lv.Type.Nillable() {
			return nil
		}
		return lv.Type
	case OmitZero:
		return lv.Type.Deref()
	}
	return nil
}

// validate is validator's own, made on first use (a run with no validate
// tag needs none).
var validate = sync.OnceValue(func() *validator.Validate {
	tablesBuilt.Add(1)
	return validator.New()
})

// RejectsZero asks validator itself whether the level's own checks (without
// omitempty and cross-field rules) reject the zero value.
func RejectsZero(lv *Level, checks []*Check) bool {
	tag := localTag(checks)
	t := GuardType(lv)
	if tag == "" || t == nil {
		return false
	}
	return !passes(zeroOf(t), tag)
}

// ZeroFails reports whether a missing field (the zero value after
// json.Unmarshal) fails the field's checks: then the schema must require it.
func ZeroFails(f *Field) bool {
	lv := f.Validate.Root
	checks := lv.Checks
	// omitnil on a value that cannot be nil skips nothing
	if lv.Omit != OmitNever && (lv.Omit != OmitNil || lv.Type.Nillable()) {
		checks = checks[:lv.Guarded]
	}
	// `required` after omitempty never sees a missing field
	if (&Level{Checks: checks}).Has("required") != nil && !SkipsRequired(lv.Type) {
		return true
	}
	if lv.Type.Kind == KindStruct && lv.Type.Named != nil && !omitsZero(lv) && structZeroFails(lv.Type.Named, 0) {
		// validator walks into a missing struct: its fields' checks decide
		return true
	}
	if lv.Type.Kind == KindPointer {
		// validator fails a nil pointer on its first check, unless that
		// check runs on nil (required_if, excluded_with and the like)
		return len(checks) > 0 && !runsOnNil(checks[0])
	}
	if ArrayZeroFails(lv) {
		return true
	}
	tag := localTag(checks)
	if tag == "" {
		return false
	}
	z := zeroOf(lv.Type)
	if !z.IsValid() {
		return false
	}
	return !passes(z, tag)
}

// ArrayZeroFails reports a Go array whose zero elements fail the checks
// after dive: a missing field decodes to N zero elements, which validator
// then checks.
func ArrayZeroFails(lv *Level) bool {
	t := lv.Type
	if t.Kind != KindSlice || t.Len <= 0 || lv.Dive == nil || lv.Omit != OmitNever {
		return false
	}
	tag := localTag(lv.Dive.Checks)
	z := zeroOf(t.Elem)
	return tag != "" && z.IsValid() && !passes(z, tag)
}

// structZeroFails reports whether validator rejects the zero value of a
// struct of the model: some field of it rejects its own zero value.
func structZeroFails(t *Type, depth int) bool {
	if depth > 8 {
		return false
	}
	for _, f := range t.Fields {
		switch {
		case f.Skip:
		case f.Validate != nil && !f.Validate.Skip:
			if ZeroFails(f) {
				return true
			}
		case f.Type.Kind == KindStruct && f.Type.Named != nil:
			if structZeroFails(f.Type.Named, depth+1) {
				return true
			}
		}
	}
	return false
}

// runsOnNil reports the conditional keywords validator calls on a nil
// pointer (registered with callValidationEvenIfNull).
func runsOnNil(c *Check) bool {
	n := c.Or[0].Keyword.Name()
	return strings.HasPrefix(n, "required_") || strings.HasPrefix(n, "excluded_")
}

func passes(v reflect.Value, tag string) (ok bool) {
	if !v.IsValid() {
		return true
	}
	defer func() {
		if recover() != nil {
			ok = true
		}
	}()
	return validate().Var(v.Interface(), tag) == nil
}

// localTag renders the level's own checks (no cross-field keywords) in
// validator's grammar.
func localTag(checks []*Check) string {
	var parts []string
	for _, c := range checks {
		var alts []string
		for _, u := range c.Or {
			if u.Keyword.Class() == CEL && isCross(u) {
				alts = nil
				break
			}
			a := u.Keyword.Name()
			if u.Param != "" {
				a += "=" + strings.NewReplacer(",", "0x2C", "|", "0x7C").Replace(u.Param)
			}
			alts = append(alts, a)
		}
		if len(alts) > 0 {
			parts = append(parts, strings.Join(alts, "|"))
		}
	}
	return strings.Join(parts, ",")
}

func isCross(u *Use) bool {
	_, ok := u.Value.(*Field)
	n := u.Keyword.Name()
	return ok || strings.HasPrefix(n, "required_") || strings.HasPrefix(n, "excluded_")
}

func zeroOf(t *TypeRef) reflect.Value {
	switch t.Kind {
	case KindString:
		return reflect.ValueOf("")
	case KindInt:
		if t.Unsigned {
			return reflect.ValueOf(uint64(0))
		}
		return reflect.ValueOf(int64(0))
	case KindDuration:
		// a time.Duration, not an int64: validator reads "1s" in
		// gte=1s only for a time.Duration (and panics on an int64)
		return reflect.ValueOf(time.Duration(0))
	case KindFloat:
		return reflect.ValueOf(float64(0))
	case KindBool:
		return reflect.ValueOf(false)
	case KindSlice:
		if t.Len >= 0 && t.Elem != nil {
			// a Go array is never empty: N zero elements
			if z := zeroOf(t.Elem); z.IsValid() {
				return reflect.New(reflect.ArrayOf(t.Len, z.Type())).Elem()
			}
			return reflect.Value{}
		}
		return reflect.ValueOf([]string(nil))
	case KindMap:
		return reflect.ValueOf(map[string]string(nil))
	case KindBytes:
		return reflect.ValueOf([]byte(nil))
	}
	return reflect.Value{}
}

// omitsZero reports an omit keyword that lets a zero value (not only nil)
// past the checks: omitempty and omitzero.
func omitsZero(lv *Level) bool {
	return lv.Omit == OmitEmpty || lv.Omit == OmitZero
}

// UntaggedStructZeroFails reports a struct-valued field without a validate
// tag whose zero value its type's own rules refuse: validator walks into
// it whether or not the JSON has it (encoding/json leaves a missing struct
// zero), so a document that lacks it fails, omitempty or omitzero on the
// json tag notwithstanding (they change only how the field is written).
func UntaggedStructZeroFails(f *Field) bool {
	return f.Validate == nil && !f.Skip && f.Type != nil && f.Type.Kind == KindStruct && f.Type.Named != nil && structZeroFails(f.Type.Named, 0)
}

// ResourceStatus reports the status of a resource kind: the API server
// drops it from every create (a status subresource) and controllers write
// it later, so no schema requires it, whatever validator says of its zero
// value (docs/exact-shapes.md).
func ResourceStatus(t *Type, f *Field) bool { return t.Root && f.JSONName == "status" }

// OptionalStruct reports a struct value (not a pointer) behind omitempty or
// omitzero whose zero value its own rules refuse: validator skips the zero
// struct and everything in it, and validates any other value fully. No
// schema says "the zero value, or valid" (the struct's rules include
// required properties and CEL, which no anyOf branch may hold in a CRD), so
// the schemas check its structure only and its rules are runtime-only.
func OptionalStruct(f *Field) bool {
	if f.Validate == nil || f.Validate.Skip || f.Validate.Root == nil {
		return false
	}
	lv := f.Validate.Root
	return lv.Type.Kind == KindStruct && lv.Type.Named != nil && omitsZero(lv) && lv.Guarded == 0 && structZeroFails(lv.Type.Named, 0)
}
