package types

import "encoding/json"

// Inner is a struct.
type Inner struct {
	A string `json:"a"`
}

// Order marks a named field ,inline, which encoding/json does not do.
// +modelgen:model
type Order struct {
	Spec Inner `json:",inline"`
}

// Raw encodes itself: encoding/json never reads its field's tag, so the
// ,inline there is no mistake.
// +modelgen:model
type Raw struct {
	// +kubebuilder:pruning:PreserveUnknownFields
	// +kubebuilder:validation:Schemaless
	Value any `json:",inline"`
}

func (r *Raw) MarshalJSON() ([]byte, error) { return json.Marshal(r.Value) }

func (r *Raw) UnmarshalJSON(data []byte) error { return json.Unmarshal(data, &r.Value) }
