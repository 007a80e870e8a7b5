// Package forms has properties whose names the API server's CEL cannot
// read (a space, a leading digit), named by cross-field rules.
package forms

// Form is a plain model.
//
// +modelgen:model
type Form struct {
	First  int `json:"first name" validate:"gtfield=Second"`
	Second int `json:"second"`
	Third  int `json:"third" validate:"ltfield=Fourth"`
	Fourth int `json:"4th"`
}
