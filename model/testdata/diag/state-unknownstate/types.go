package unknownstate

type Phase string

const (
	PhaseOpen   Phase = "open"
	PhaseClosed Phase = "closed"
)

// +modelgen:model
type Order struct {
	Phase Phase `json:"phase" state:"initial=open;open->Closed:Close;open->PhaseClosed:Shut"`
}
