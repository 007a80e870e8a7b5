// Package norole uses * but names no role: a warning.
package norole

// Thing has no tenant key: a warning, and no generated filter.
//
// +modelgen:model
type Thing struct {
	A string `json:"a" access:"read=*"`
}
