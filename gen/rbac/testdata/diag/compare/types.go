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

// Crate's filter would be named CrateAccess, which the package declares.
//
// +modelgen:model
// +modelgen:access:default="read=*,write=x"
type Crate struct { // want `CrateAccess is already declared; the generated filter of Crate needs the name`
	Tenant string `json:"tenant" access:"tenant"`
}

// CrateAccess is the package's own.
var CrateAccess = 0
