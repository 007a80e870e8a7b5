package types

// Required has a field the schema requires.
type Required struct {
	ID string `json:"id"`
}

// Optional has only optional fields.
type Optional struct {
	Note string `json:"note,omitempty"`
}

// Order embeds both by pointer: only Optional can be.
// +modelgen:model
type Order struct {
	*Required
	*Optional
	Name string `json:"name"`
}
