package unreachable

type Phase string

const (
	New    Phase = "New"
	Done   Phase = "Done"
	Orphan Phase = "Orphan"
)

// +modelgen:model
type Order struct {
	Phase Phase `json:"phase" state:"initial=New;New->Done:Finish;Orphan->Done:Adopt"`
}
