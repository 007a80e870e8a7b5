// Package widgets has a modelgen.yaml full of mistakes.
package widgets

// Widget is a plain model.
//
// +modelgen:model
type Widget struct {
	Name string `json:"name" validate:"required"`
}
