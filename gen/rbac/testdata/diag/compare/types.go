// Package compare has a field the generator cannot compare without
// reflection.
package compare

// Box holds anything.
//
// +modelgen:model
// +modelgen:access:default="read=*,write=x"
type Box struct {
	Tenant string `json:"tenant" access:"tenant"`
	// +kubebuilder:validation:Schemaless
	// +kubebuilder:pruning:PreserveUnknownFields
	Any any `json:"any"`
}
