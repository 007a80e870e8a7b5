package types

// Order has an unexported field with a json tag, and an array with dive;
// the fixed array is the only error.
// +modelgen:model
type Order struct {
	Name   string `json:"name"`
	secret string `json:"secret" validate:"required"`
	Sizes  [3]int `json:"sizes" validate:"dive,gte=1"`
	Bad    int    `json:"bad" validate:"dive"`
}
