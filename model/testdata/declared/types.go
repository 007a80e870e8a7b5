// Package declared holds the names the backends check before they generate
// package-level identifiers (model.Package.Declared).
package declared

// Phase is a lifecycle.
type Phase string

// Order is governed and has a webhook and a machine.
// +modelgen:model
type Order struct {
	Phase Phase `json:"phase"`
}

// Reopen is a method: methods are not package-level declarations.
func (o *Order) Reopen() {}

// PhaseEvent is the name gen/statemachine generates for Phase's events.
type PhaseEvent string

// OrderAccess is the name gen/rbac generates for Order's filter.
var OrderAccess = 0

// OrderWebhook is the name gen/webhook generates for Order's webhook.
type OrderWebhook struct{}
