package patterns

// Note is a plain model whose patterns are written in Go's syntax.
//
// +modelgen:model
type Note struct {
	// Lines has a multi-line anchor: ECMA-262 has no flag-free form of it.
	// +kubebuilder:validation:Pattern=`(?m)^a$`
	Lines string `json:"lines"`
	// Smiley is one rune of the emoji block, spelled with \x{...}.
	// +kubebuilder:validation:Pattern=`^[\x{1F600}-\x{1F64F}]$`
	Smiley string `json:"smiley"`
	// Word is case-insensitive.
	// +kubebuilder:validation:Pattern=`(?i)^kelvin\z`
	Word string `json:"word"`
}
