// Package sharedbare holds a struct without validate tags (Outer) around
// one with them (Inner), reached both where validator checks it and where
// it never does (the elements of a slice without dive): Outer's
// unvalidated variant is made from Outer's own schema, which the schema
// set shares with the bare one until then.
package sharedbare

// Inner has validate tags.
type Inner struct {
	Name string `json:"name" validate:"required,min=3"`
}

// Outer has none.
type Outer struct {
	Inner Inner `json:"inner"`
	// +optional
	Note string `json:"note,omitempty"`
}

// Root is validated: its Outer is, and the elements of Outers are not.
//
// +modelgen:model
type Root struct {
	Outer  Outer   `json:"outer"`
	Outers []Outer `json:"outers,omitempty"`
}
