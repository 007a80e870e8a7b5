package twotargets

type Phase string

const (
	Open   Phase = "Open"
	Closed Phase = "Closed"
	Lost   Phase = "Lost"
)

// +modelgen:model
type Order struct {
	Phase Phase `json:"phase" state:"initial=Open;Open->Closed:Close;Open->Lost:Close;Open|Open->Lost:Lose"`
}
