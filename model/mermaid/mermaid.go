// Package mermaid draws the state machines of the model as Mermaid
// stateDiagram-v2 text. Two outputs show the same diagram: the CRD backend
// appends it to the phase property's description (through schema), and the
// statemachine backend writes it to <docs dir>/<Type>-statemachine.md; both
// call StateDiagram, so they cannot differ. It lives beside neither: schema
// may not import a backend, and the diagram is not a schema.
package mermaid

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/modelgen/modelgen/model"
)

// simpleID is a state Mermaid accepts as its own identifier.
var simpleID = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*$`)

// StateDiagram renders a machine as a Mermaid stateDiagram-v2, without a code
// fence: [*] points at the initial state, terminal states point at [*],
// and guarded transitions carry [Guard] after the event.
func StateDiagram(m *model.Machine) string {
	ids := map[string]string{}
	var b strings.Builder
	b.WriteString("stateDiagram-v2\n")
	for i, s := range m.States {
		ids[s.Value] = s.Value
		if !simpleID.MatchString(s.Value) || s.Value == "state" || s.Value == "direction" {
			ids[s.Value] = fmt.Sprintf("s%d", i)
			fmt.Fprintf(&b, "    state %q as %s\n", s.Value, ids[s.Value])
		}
	}
	fmt.Fprintf(&b, "    [*] --> %s\n", ids[m.Initial])
	for _, t := range m.Transitions {
		label := t.Event
		if t.Guard != "" {
			label += " [" + t.Guard + "]"
		}
		fmt.Fprintf(&b, "    %s --> %s: %s\n", ids[t.From], ids[t.To], label)
	}
	for _, s := range m.States {
		if s.Terminal {
			fmt.Fprintf(&b, "    %s --> [*]\n", ids[s.Value])
		}
	}
	return b.String()
}
