package statemachine

import (
	"testing"

	"github.com/modelgen/modelgen/model"
	"github.com/modelgen/modelgen/model/statetag"
)

func TestMermaidAliasesOddStateNames(t *testing.T) {
	m := &statetag.Machine{
		Field:   &model.Field{JSONName: "phase"},
		Initial: "in-progress",
		States:  []statetag.State{{Value: "in-progress"}, {Value: "done", Terminal: true}, {Value: "state"}},
		Transitions: []statetag.Transition{
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
	if got := Mermaid(m); got != want {
		t.Errorf("Mermaid:\n%s\nwant\n%s", got, want)
	}
}

func TestLowerFirst(t *testing.T) {
	for in, want := range map[string]string{"PaymentPhase": "paymentPhase", "SLAPhase": "slaPhase", "HTTP": "hTTP", "X": "x"} {
		if got := lowerFirst(in); got != want {
			t.Errorf("lowerFirst(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestFieldPathQuotesOddNames(t *testing.T) {
	m := &statetag.Machine{Field: &model.Field{JSONName: "life-cycle"}}
	if got := fieldPath(m); got != "['life-cycle']" {
		t.Errorf("fieldPath = %s", got)
	}
}
