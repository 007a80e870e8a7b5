package unusedconstant

type Phase string

const (
	Open     Phase = "Open"
	Closed   Phase = "Closed"
	Archived Phase = "Archived"
)

// +modelgen:model
type Order struct {
	Phase Phase `json:"phase" state:"initial=Open;Open->Closed:Close"`
}
