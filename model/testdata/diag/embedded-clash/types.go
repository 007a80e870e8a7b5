package types

// Inner and Other both have a field named "a".
type Inner struct {
	A string `json:"a"`
	B string `json:"b"`
}

// Other is embedded beside Inner.
type Other struct {
	A string `json:"a"`
	C string `json:"c"`
}

// Order embeds both: encoding/json drops "a", which neither schema can.
// +modelgen:model
type Order struct {
	Inner
	Other
}

// Shadow's own field hides the promoted one.
// +modelgen:model
type Shadow struct {
	Inner
	A int `json:"a"`
}

// Same's own field hides a promoted one of the same type, json options and
// tags: the schema of Inner may keep it (a warning, not an error).
// +modelgen:model
type Same struct {
	Inner
	B string `json:"b"`
}
