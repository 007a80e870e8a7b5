package types

// Inner is a struct.
type Inner struct {
	A string `json:"a"`
}

// Order marks a named field ,inline, which encoding/json does not do.
// +modelgen:model
type Order struct {
	Spec Inner `json:",inline"`
}
