package mermaid

import (
	"testing"

	"github.com/modelgen/modelgen/internal/testkit"
	"github.com/modelgen/modelgen/model"
)

// This package has no golden files; it accepts -update (see testkit) so
// that go test ./... -update runs it too.
var _ = testkit.Update

func TestMermaidAliasesOddStateNames(t *testing.T) {
	m := &model.Machine{
		Field:   &model.Field{JSONName: "phase"},
		Initial: "in-progress",
		States:  []model.MachineState{{Value: "in-progress"}, {Value: "done", Terminal: true}, {Value: "state"}},
		Transitions: []model.MachineTransition{
			{From: "in-progress", Event: "Finish", To: "done", Guard: "Ready"},
			{From: "in-progress", Event: "Stall", To: "state"},
			{From: "state", Event: "Go", To: "in-progress"},
		},
	}
	want := `stateDiagram-v2
    state "in-progress" as s0
    state "state" as s2
    [*] --> s0
    s0 --> done: Finish [Ready]
    s0 --> s2: Stall
    s2 --> s0: Go
    done --> [*]
`
	if got := StateDiagram(m); got != want {
		t.Errorf("StateDiagram:\n%s\nwant\n%s", got, want)
	}
}
