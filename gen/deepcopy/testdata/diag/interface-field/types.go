// Package things asks for deepcopy on every type, and some fields hold
// interfaces: a copy would share the value they hold with the original,
// so each is an error at the field (controller-gen refuses them too).
// +kubebuilder:object:generate=true
package things

// Thing is no model of modelgen's (the load gives its shapes no schema);
// the deepcopy backend still copies it, as controller-gen's object does.
type Thing struct {
	Name string         `json:"name" validate:"required"`
	Data interface{}    `json:"data,omitempty"`
	Bag  map[string]any `json:"bag,omitempty"`
	Item *Item          `json:"item,omitempty"`
}

// Item holds an interface a level down, in a slice.
type Item struct {
	Values []Value `json:"values,omitempty"`
}

// Value is a named interface.
type Value interface{ Kind() string }

// Copier is an interface that copies itself: controller-tools calls its
// DeepCopy, so a field of this type is no error.
type Copier interface{ DeepCopy() Copier }

// Holder holds one.
type Holder struct {
	C Copier `json:"c,omitempty"`
}
