// Package norole uses * but names no role: a warning.
package norole

// Thing has no tenant key: a warning, and no generated filter.
//
// +modelgen:model
type Thing struct { // want `Thing has no tenant key`
	A string `json:"a" access:"read=*"` // want `\* names no role`
}
