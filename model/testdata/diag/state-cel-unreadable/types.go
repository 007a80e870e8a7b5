// Package forms has a state machine on a property whose name the API
// server's CEL cannot read (it starts with a digit), so no transition rule
// could be enforced.
package forms

// FormPhase is the lifecycle of a form.
type FormPhase string

// The phases of a form.
const (
	Draft FormPhase = "Draft"
	Sent  FormPhase = "Sent"
)

// Form is a plain model.
//
// +modelgen:model
type Form struct {
	Phase FormPhase `json:"1phase,omitempty" state:"initial=Draft;Draft->Sent:Send"`
}
