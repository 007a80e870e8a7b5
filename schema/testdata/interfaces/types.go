package interfaces

// Value is an interface no schema reaches: Holder embeds it out of its JSON.
type Value any

// Reached is an interface a schema reaches, through Uses.R.
type Reached interface{ Reach() }

// Holder keeps a Value outside its JSON, as kyverno v1.19.1's Any does.
// +modelgen:model
type Holder struct {
	Value `json:"-"`
	Name  string `json:"name"`
}

// Uses refers to Reached, which has no schema.
// +modelgen:model
type Uses struct {
	R Reached `json:"r"`
}
