package collisions

type Phase string

const (
	Open   Phase = "Open"
	Closed Phase = "Closed"
)

type Mode string

const (
	On  Mode = "On"
	Off Mode = "Off"
)

// Order has an event named like its own field, an event named like the
// Can method of another, and two state fields.
// +modelgen:model
type Order struct {
	Phase Phase  `json:"phase" state:"initial=Open;Open->Closed:Note;Closed->Open:CanNote"`
	Note  string `json:"note"`
	Mode  Mode   `json:"mode" state:"initial=On;On->Off:Switch;Off->On:Switch"`
}

// Other reuses Phase for a second machine.
// +modelgen:model
type Other struct {
	Phase Phase `json:"phase" state:"initial=Open;Open->Closed:Close"`
}
