// Package types has fields encoding/json cannot encode or decode.
package types

import "unsafe"

// Callback is a function type.
type Callback func() error

// Order holds what has no JSON form.
// +modelgen:model
type Order struct {
	Name string             `json:"name"`
	Err  error              `json:"err"`
	Any  any                `json:"any"`
	On   Callback           `json:"on"`
	Ch   chan int           `json:"ch"`
	C    complex128         `json:"c"`
	P    unsafe.Pointer     `json:"p"`
	ByF  map[float64]string `json:"byF"`
	// fine: no schema needed
	// +kubebuilder:validation:Schemaless
	// +kubebuilder:pruning:PreserveUnknownFields
	Free any    `json:"free"`
	Skip func() `json:"-"`
}
