// Package tickets is a fixture for the CLI's --only test: a model with a
// state machine, so that two backends (openapi, statemachine) write files.
package tickets

// TicketPhase is the lifecycle of a ticket.
type TicketPhase string

// The phases of a ticket.
const (
	Open   TicketPhase = "Open"
	Closed TicketPhase = "Closed"
)

// Ticket is a plain model with a lifecycle.
//
// +modelgen:model
type Ticket struct {
	Title string      `json:"title" validate:"required,max=80"`
	Phase TicketPhase `json:"phase,omitempty" state:"initial=Open;Open->Closed:Close"`
}
