// Package types has fields encoding/json cannot encode or decode.
package types

import (
	"time"
	"unsafe"
)

// PtrKey has MarshalText on its pointer only: encoding/json asks the key's
// own type, so a map keyed by it cannot be encoded.
type PtrKey struct{ A, B int }

func (k *PtrKey) MarshalText() ([]byte, error) { return nil, nil }

// ValKey has MarshalText on the value: a fine map key.
type ValKey struct{ A, B int }

func (k ValKey) MarshalText() ([]byte, error) { return nil, nil }

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
	ByP  map[PtrKey]string  `json:"byP"`
	// fine: a value MarshalText key, a time.Duration key (an integer)
	ByV map[ValKey]string        `json:"byV"`
	ByD map[time.Duration]string `json:"byD"`
	// fine: no schema needed
	// +kubebuilder:validation:Schemaless
	// +kubebuilder:pruning:PreserveUnknownFields
	Free any    `json:"free"`
	Skip func() `json:"-"`
}
