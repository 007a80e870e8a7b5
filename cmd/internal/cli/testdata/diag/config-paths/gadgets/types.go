// Package gadgets writes its OpenAPI document over its Go source.
package gadgets

// Gadget is a plain model.
//
// +modelgen:model
type Gadget struct {
	Name string `json:"name" validate:"required"`
}
