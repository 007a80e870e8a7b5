// Package omit exercises validator's three omit keywords on every kind of
// value: what each lets through differs (omitempty: nil and scalar zero
// values; omitzero: also pointers to the zero value and empty slices and
// maps; omitnil: nil only, so nothing on a string).
package omit

// Omits is a plain model.
//
// +modelgen:model
type Omits struct {
	NilString  string            `json:"nilString" validate:"omitnil,min=3"`
	ZeroPtr    *string           `json:"zeroPtr,omitempty" validate:"omitzero,min=3"`
	EmptyPtr   *string           `json:"emptyPtr,omitempty" validate:"omitempty,min=3"`
	NilPtr     *string           `json:"nilPtr,omitempty" validate:"omitnil,min=3"`
	ZeroList   []string          `json:"zeroList,omitempty" validate:"omitzero,min=2"`
	ZeroMap    map[string]string `json:"zeroMap,omitempty" validate:"omitzero,min=2"`
	EmptyList  []string          `json:"emptyList,omitempty" validate:"omitempty,min=2"`
	ZeroInt    int               `json:"zeroInt,omitempty" validate:"omitzero,gte=5"`
	BeforeOmit string            `json:"beforeOmit,omitempty" validate:"max=5,omitempty,min=2"`
}
