package missinginitial

type Phase string

const (
	Open   Phase = "Open"
	Closed Phase = "Closed"
)

// +modelgen:model
type Order struct {
	Phase Phase `json:"phase" state:"Open->Closed:Close"`
}
