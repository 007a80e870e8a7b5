package types

// Order uses encoding/json's ,string option.
// +modelgen:model
type Order struct {
	Count  int64   `json:"count,string"`
	Ratio  float64 `json:"ratio,string,omitempty"`
	Nested Inner   `json:"nested,string"` // ignored by encoding/json on a struct
}

// Inner is a struct.
type Inner struct {
	A string `json:"a"`
}
