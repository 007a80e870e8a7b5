// Package forms has properties whose names the API server's CEL cannot
// read (a space, a leading digit, a colon), named by cross-field rules.
package forms

// Form is a plain model.
//
// +modelgen:model
type Form struct {
	First  int `json:"first name" validate:"gtfield=Second"`
	Second int `json:"second"`
	Third  int `json:"third" validate:"ltfield=Fourth"`
	Fourth int `json:"4th"`
	Fifth  int `json:"a:b" validate:"nefield=Sixth"`
	Sixth  int `json:"sixth"`
}
