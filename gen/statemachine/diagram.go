package statemachine

import (
	"fmt"
	"strings"

	"github.com/modelgen/modelgen/model"
	"github.com/modelgen/modelgen/model/mermaid"
)

// markdown is the diagram page written into the package's docs directory.
func markdown(m *model.Machine) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "<!-- %s -->\n\n", Header)
	fmt.Fprintf(&b, "# %s state machine\n\n", m.Name)
	fmt.Fprintf(&b, "The lifecycle of `%s.%s` (JSON `%s`), declared by its `state` tag:\n\n", m.Owner.Name, m.Field.GoName, m.Field.JSONName)
	fmt.Fprintf(&b, "```\n%s\n```\n\n", m.Tag.Value)
	fmt.Fprintf(&b, "```mermaid\n%s```\n\n", mermaid.StateDiagram(m))
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
