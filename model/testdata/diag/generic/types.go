package types

// Box is generic.
// +modelgen:model
type Box[T any] struct {
	Value T `json:"value"`
}

// Pair is a generic struct used by Order.
type Pair[K comparable, V any] struct {
	Key   K `json:"key"`
	Value V `json:"value"`
}

// Order holds an instance of a generic type.
// +modelgen:model
type Order struct {
	Item Pair[string, int] `json:"item"`
}
