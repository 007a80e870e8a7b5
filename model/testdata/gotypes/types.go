// Package gotypes holds the Go types model.GoType describes.
package gotypes

import "time"

// Holder has a field of each kind GoType tells apart.
// +modelgen:model
type Holder struct {
	Name     string            `json:"name"`
	hidden   int               //nolint:unused // unexported: part of the Go type, not of the JSON one
	When     time.Time         `json:"when"`
	Ptr      *Value            `json:"ptr,omitempty"`
	List     []Value           `json:"list"`
	Grid     [2]bool           `json:"grid"`
	Index    map[string]*Value `json:"index"`
	Any      any               `json:"-"`
	Alias    Values            `json:"alias"`
	Tree     Node              `json:"tree"`
	Boxed    Box[int]          `json:"-"`
	Callback func()            `json:"-"`
	Embedded
}

// Value compares itself by value.
type Value struct {
	V string `json:"v"`
}

// Equal is an Equal method taking a value.
func (v Value) Equal(o Value) bool { return v == o }

// Embedded compares itself by pointer.
type Embedded struct {
	E int `json:"e"`
}

// Equal is an Equal method taking a pointer.
func (e *Embedded) Equal(o *Embedded) bool { return *e == *o }

// Values is an alias.
type Values = []Value

// Node is recursive.
type Node struct {
	Children []Node `json:"children"`
}

// Box is generic.
type Box[T any] struct {
	Item T `json:"item"`
}

// Twice uses the types Holder uses, so each is one GoType, and names a
// json key twice, which encoding/json reads the first of.
// +modelgen:model
type Twice struct {
	Name   string   `json:"name" validate:"required" json:"second"`
	Ptr    *Value   `json:"ptr,omitempty"`
	Bytes  []byte   `json:"bytes"`
	Octets []uint8  `json:"octets"`
	Times  []string `json:"times"`
	Strs   []string `json:"strs"`
}
