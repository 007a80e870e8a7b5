package statemachine

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/modelgen/modelgen/model/statetag"
)

// simpleID is a state Mermaid accepts as its own identifier.
var simpleID = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*$`)

// Mermaid renders a machine as a Mermaid stateDiagram-v2, without a code
// fence: [*] points at the initial state, terminal states point at [*],
// and guarded transitions carry [Guard] after the event.
func Mermaid(m *statetag.Machine) string {
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

// markdown is the diagram page written into the package's docs directory.
func markdown(m *statetag.Machine) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "<!-- %s -->\n\n", Header)
	fmt.Fprintf(&b, "# %s state machine\n\n", m.Name)
	fmt.Fprintf(&b, "The lifecycle of `%s.%s` (JSON `%s`), declared by its `state` tag:\n\n", m.Owner.Name, m.Field.GoName, m.Field.JSONName)
	fmt.Fprintf(&b, "```\n%s\n```\n\n", m.Tag.Value)
	fmt.Fprintf(&b, "```mermaid\n%s```\n\n", Mermaid(m))
	b.WriteString("| From | Event | To | Guard |\n|---|---|---|---|\n")
	for _, t := range m.Transitions {
		guard := t.Guard
		if guard == "" {
			guard = "-"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", t.From, t.Event, t.To, guard)
	}
	var terminal []string
	for _, s := range m.States {
		if s.Terminal {
			terminal = append(terminal, s.Value)
		}
	}
	fmt.Fprintf(&b, "\nInitial state: %s. Terminal states: %s.\n", m.Initial, orNone(terminal))
	return []byte(b.String())
}

func orNone(list []string) string {
	if len(list) == 0 {
		return "none"
	}
	return strings.Join(list, ", ")
}
