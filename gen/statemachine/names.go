package statemachine

import (
	"unicode"
	"unicode/utf8"

	"github.com/modelgen/modelgen/model"
	"github.com/modelgen/modelgen/model/statetag"
)

// names are the Go identifiers generated for one machine. The package-level
// ones start with the machine's name (the phase type's), so two machines of
// one package cannot collide; the methods go on the owning struct.
type names struct {
	m *statetag.Machine

	Event      string // PaymentPhaseEvent
	Transition string // PaymentPhaseTransition
	Hooks      string // PaymentPhaseHooks
	NoHooks    string // PaymentPhaseNoHooks
	Machine    string // PaymentPhaseMachine (the accessor)
	machineVar string // paymentPhaseMachine
	adapter    string // paymentPhaseHookAdapter

	Fire        string // FirePhase
	Transitions string // PhaseTransitions
	Init        string // InitPhase
}

func newNames(m *statetag.Machine) names {
	n, f := m.Name, m.Field.GoName
	return names{
		m:           m,
		Event:       n + "Event",
		Transition:  n + "Transition",
		Hooks:       n + "Hooks",
		NoHooks:     n + "NoHooks",
		Machine:     n + "Machine",
		machineVar:  lowerFirst(n) + "Machine",
		adapter:     lowerFirst(n) + "HookAdapter",
		Fire:        "Fire" + f,
		Transitions: f + "Transitions",
		Init:        "Init" + f,
	}
}

// EventConst is the constant of an event: PaymentPhaseEventAuthorize.
func (n names) EventConst(event string) string { return n.Event + event }

// methods lists every method generated on the owner with the tag offset that
// caused it (for collision messages).
func (n names) methods() map[string]int {
	out := map[string]int{n.Fire: 0, n.Transitions: 0, n.Init: 0}
	for _, t := range n.m.Transitions {
		for _, name := range []string{t.Event, t.Event + "With", "Can" + t.Event} {
			if _, ok := out[name]; !ok {
				out[name] = t.EventOff
			}
		}
	}
	return out
}

// collisions reports generated methods that collide with a field of the
// owner or with each other (an event named like a helper).
func (n names) collisions() model.Diagnostics {
	var diags model.Diagnostics
	methods := n.methods()
	for _, f := range n.m.Owner.Fields {
		if off, ok := methods[f.GoName]; ok {
			diags.Errorf(n.m.Tag.At(off), "state: the generated method %s.%s would collide with its field %s; rename the event", n.m.Owner.Name, f.GoName, f.GoName)
		}
	}
	for _, t := range n.m.Transitions {
		for _, helper := range []string{n.Fire, n.Transitions, n.Init} {
			if t.Event == helper || t.Event+"With" == helper || "Can"+t.Event == helper {
				diags.Errorf(n.m.Tag.At(t.EventOff), "state: event %s would generate a method named like the helper %s.%s; rename the event", t.Event, n.m.Owner.Name, helper)
			}
		}
		for _, o := range n.m.Events {
			if o+"With" == t.Event || "Can"+o == t.Event {
				diags.Errorf(n.m.Tag.At(t.EventOff), "state: event %s collides with the method generated for event %s; rename one", t.Event, o)
			}
		}
	}
	return diags
}

func lowerFirst(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	// keep initialisms readable: SLAPhase -> slaPhase
	upper := 0
	for _, c := range s {
		if !unicode.IsUpper(c) {
			break
		}
		upper++
	}
	if upper > 1 && upper < len(s) {
		return string(toLower(s[:upper-1])) + s[upper-1:]
	}
	return string(unicode.ToLower(r)) + s[size:]
}

func toLower(s string) []rune {
	var out []rune
	for _, c := range s {
		out = append(out, unicode.ToLower(c))
	}
	return out
}
