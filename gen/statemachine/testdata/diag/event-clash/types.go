package types

// Phase is the order's lifecycle.
type Phase string

const (
	Open   Phase = "Open"
	Closed Phase = "Closed"
	Gone   Phase = "Gone"
)

// PhaseMachine is the user's own declaration, named like a generated one.
func PhaseMachine() {}

// Order has events named like a deepcopy method and like its own method.
// +modelgen:model
type Order struct {
	Phase Phase `json:"phase" state:"initial=Open;Open->Closed:DeepCopy;Closed->Open:Reopen;Closed->Gone:Close;Open->Gone:CanClose"`
}

// Reopen is the user's own method.
func (o *Order) Reopen() {}
