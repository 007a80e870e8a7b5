package noway

type Phase string

const (
	New     Phase = "New"
	Ping    Phase = "Ping"
	Pong    Phase = "Pong"
	Done    Phase = "Done"
	Stuck   Phase = "Stuck"
	Settled Phase = "Settled"
)

// Loop can never finish: Ping and Pong only lead to each other.
// +modelgen:model
type Loop struct {
	Phase Phase `json:"phase" state:"initial=New;New->Done:Finish;New->Ping:Play;Ping->Pong:Hit;Pong->Ping:Hit"`
}

type Step string

const (
	Start  Step = "Start"
	Middle Step = "Middle"
	End    Step = "End"
	Final  Step = "Final"
)

// Listed says which states are terminal, and gets it wrong twice.
// +modelgen:model
type Listed struct {
	Step Step `json:"step" state:"initial=Start;terminal=End|Middle;Start->Middle:Next;Middle->End:Next;Start->Final:Skip"`
}
