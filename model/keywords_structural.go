package model

// The tag's own structure (omitempty, dive...) and required.

// structural keywords shape the tag; the parser handles them.
type structural struct{ name, doc string }

func (k structural) Name() string                { return k.name }
func (k structural) Class() Class                { return Structural }
func (k structural) Doc() string                 { return k.doc }
func (k structural) Schema() string              { return "(tag structure)" }
func (k structural) Resolve(u *Use) (any, error) { return nil, nil }

// required: the value is not the zero value (slices, maps and pointers: not nil).
type required struct{}

func (required) Name() string { return "required" }
func (required) Class() Class { return Schema }
func (required) Doc() string {
	return "the value is not the zero value; slices, maps and pointers are not nil"
}
func (required) Schema() string {
	return "`required`; strings `minLength: 1`; numbers CEL `self != 0` (OpenAPI `not: {enum: [0]}`); bools `enum: [true]`"
}
func (required) Resolve(u *Use) (any, error) { return nil, nil }

// SkipsRequired reports a value validator's default instance checks no
// `required` on: a struct (metav1.Time, Quantity, IntOrString, a struct of
// the model...) that is not a time.Time and not behind a pointer.
func SkipsRequired(t *TypeRef) bool {
	switch t.Kind {
	case KindStruct, KindQuantity, KindMetaDuration, KindIntOrString:
		return true
	case KindTime:
		return !isStdTime(t)
	}
	return false
}
