package types

// Order's tag is not terminated.
// +modelgen:model
type Order struct {
	Name string `json:"name"
}
