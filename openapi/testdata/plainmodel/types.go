// Package plainmodel holds domain structs that are not Kubernetes resources.
package plainmodel

// Level says how urgent a ticket is.
type Level string

const (
	LevelLow  Level = "low"
	LevelHigh Level = "high"
)

// LabelKey is a named string used only as a map key: JSON object keys are
// strings whatever their Go type, so no schema refers to it and it gets no
// component.
type LabelKey string

// Ticket is a support ticket, validated at the edge.
//
// +modelgen:model
type Ticket struct {
	// Title is 5 to 120 runes.
	Title string `json:"title" validate:"required,min=5,max=120"`
	// Email of the reporter.
	Email string `json:"email" validate:"required,email"`
	// Level is an enum; the named type becomes its own component.
	Level Level `json:"level" validate:"required,oneof=low high"`
	// Score is a float in [0, 1].
	Score float64 `json:"score" validate:"gte=0,lte=1"`
	// Attempts is a counter, at most 3 when set.
	Attempts *int `json:"attempts,omitempty" validate:"omitempty,max=3"`
	// Tags: 1 to 5 unique, lower-case words.
	Tags []string `json:"tags" validate:"required,min=1,max=5,unique,dive,alpha,max=16"`
	// Attrs: at most 10 entries.
	Attrs map[string]int `json:"attrs,omitempty" validate:"omitempty,max=10,dive,gte=0"`
	// Labels are keyed by a named type.
	Labels map[LabelKey]string `json:"labels,omitempty"`
	// Reporter is a nested struct.
	Reporter Person `json:"reporter" validate:"required"`
	// Assignee is an optional nested struct.
	Assignee *Person `json:"assignee,omitempty"`
	// Escalation is an optional enum: null or one of Level's constants.
	Escalation *Level `json:"escalation,omitempty" validate:"omitempty,oneof=low high"`
	// Color accepts one of validator's alias colors.
	Color string `json:"color,omitempty" validate:"omitempty,hexcolor|rgb"`
	// Active must be true (validator: required on a bool).
	Active bool `json:"active" validate:"required"`
	// Start and End: End after Start when both are set.
	Start int `json:"start,omitempty"`
	End   int `json:"end,omitempty" validate:"omitempty,gtfield=Start"`
	// Notes are skipped by validator.
	Notes string `json:"notes,omitempty" validate:"-"`
}

// Person is referenced from Ticket.
type Person struct {
	Name string `json:"name" validate:"required,max=64"`
	// Age must be positive when set.
	Age uint8 `json:"age,omitempty" validate:"omitempty,gt=0,lte=150"`
}
