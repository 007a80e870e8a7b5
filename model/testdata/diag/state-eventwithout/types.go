package eventwithout

type Phase string

const (
	Open   Phase = "Open"
	Closed Phase = "Closed"
)

// +modelgen:model
type Order struct {
	Phase Phase `json:"phase" state:"events=Close|Reopen|Close;initial=Open;Open->Closed:Close;Closed->Open:Revive"`
}
