package methods

type Phase string

const (
	Open   Phase = "Open"
	Closed Phase = "Closed"
)

// PhaseEvent is the user's own type, named like a generated one.
type PhaseEvent int

// Order has events named like a deepcopy method and like its own method.
// +modelgen:model
type Order struct {
	Phase Phase `json:"phase" state:"initial=Open;Open->Closed:DeepCopy;Closed->Open:Reopen"`
}

// Reopen is the user's own method.
func (o *Order) Reopen() {}
