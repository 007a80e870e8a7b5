// Package absolute has a header setting that must be refused.
package absolute

// Widget is a plain model.
//
// +modelgen:model
type Widget struct {
	Name string `json:"name" validate:"required"`
}
