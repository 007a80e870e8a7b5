// Package things is a fixture for the CLI's warnings test: checks no
// schema carries, each found by a different part of the generator.
package things

// Thing is a plain model.
//
// +modelgen:model
type Thing struct {
	Code   string            `json:"code" validate:"required,iso4217"`
	Labels map[string]string `json:"labels,omitempty" validate:"omitempty,dive,keys,ne=x,endkeys"`
	Either string            `json:"either,omitempty" validate:"omitempty,eqfield=Code|len=2"`
	Set    map[string]string `json:"set,omitempty" validate:"omitempty,unique"`
}
