// Package chain holds validate tags two references below a place
// validator never checks (the elements of a slice without dive): Top and
// Mid have no tags of their own, and still each get an unvalidated variant,
// because what they refer to does.
package chain

// Leaf has validate tags.
type Leaf struct {
	Name string `json:"name" validate:"required,min=3"`
}

// Mid refers to Leaf.
type Mid struct {
	Leaf Leaf `json:"leaf"`
}

// Top refers to Mid.
type Top struct {
	Mid Mid `json:"mid"`
}

// Root is validated; the elements of Tops are not.
//
// +modelgen:model
type Root struct {
	Top  Top   `json:"top"`
	Tops []Top `json:"tops,omitempty"`
}
