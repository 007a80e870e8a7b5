package syntax

type Phase string

const (
	A Phase = "A"
	B Phase = "B"
)

// +modelgen:model
type Order struct {
	Phase Phase `json:"phase" state:"initial=A;A->B;B->A:go;A=>B:Go"`
}
