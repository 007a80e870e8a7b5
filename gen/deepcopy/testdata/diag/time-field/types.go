// Package events asks for deepcopy on every type, and one field is a
// time.Time, which has no DeepCopyInto: the error is at the field, and
// says to use metav1.Time.
// +kubebuilder:object:generate=true
package events

import "time"

// Event is a plain model.
//
// +modelgen:model
type Event struct {
	Name string    `json:"name" validate:"required"`
	At   time.Time `json:"at"`
	Log  []Entry   `json:"log,omitempty"`
}

// Entry is a line of the log, with a time in a slice element.
type Entry struct {
	When *time.Time `json:"when,omitempty"`
}
