package statemachine

import (
	"slices"
	"sort"
	"unicode"
	"unicode/utf8"

	"github.com/modelgen/modelgen/model"
)

// names are the Go identifiers generated for one machine. The package-level
// ones start with the machine's name (the phase type's), so two machines of
// one package cannot collide; the methods go on the owning struct.
// collisions checks them against each other, the owner's fields and
// methods, the methods deepcopy generates and the package's own
// declarations, so generated code always compiles.
type names struct {
	m *model.Machine

	Event      string // PaymentPhaseEvent
	Transition string // PaymentPhaseTransition
	Hooks      string // PaymentPhaseHooks
	NoHooks    string // PaymentPhaseNoHooks
	Machine    string // PaymentPhaseMachine (the accessor)
	MachineVar string // paymentPhaseMachine
	Adapter    string // paymentPhaseHookAdapter

	Fire        string // FirePhase
	Transitions string // PhaseTransitions
	Init        string // InitPhase
}

// namesOf returns the generated identifiers of a machine.
func namesOf(m *model.Machine) names {
	n, f := m.Name, m.Field.GoName
	return names{
		m:           m,
		Event:       n + "Event",
		Transition:  n + "Transition",
		Hooks:       n + "Hooks",
		NoHooks:     n + "NoHooks",
		Machine:     n + "Machine",
		MachineVar:  lowerFirst(n) + "Machine",
		Adapter:     lowerFirst(n) + "HookAdapter",
		Fire:        "Fire" + f,
		Transitions: f + "Transitions",
		Init:        "Init" + f,
	}
}

// EventConst is the constant of an event: PaymentPhaseEventAuthorize.
func (n names) EventConst(event string) string { return n.Event + event }

// deepcopyMethods are the methods the deepcopy backend generates on a struct
// of the model (controller-gen's names): an event or field named like one
// breaks the package.
var deepcopyMethods = []string{"DeepCopy", "DeepCopyInto", "DeepCopyObject"}

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

// packageLevel lists the package-level identifiers generated for the machine.
func (n names) packageLevel() []string {
	out := []string{n.Event, n.Transition, n.Hooks, n.NoHooks, n.Machine, n.MachineVar, n.Adapter}
	for _, e := range n.m.Events {
		out = append(out, n.EventConst(e))
	}
	return out
}

// collisions reports generated identifiers that collide with a field or a
// method of the owner, with a method another backend generates, with a
// declaration of the package, or with each other (an event named like a
// helper).
func (n names) collisions() model.Diagnostics {
	var diags model.Diagnostics
	m := n.m
	methods := n.methods()
	for _, f := range m.Owner.Fields {
		if off, ok := methods[f.GoName]; ok {
			diags.Errorf(m.Tag.At(off), "state: the generated method %s.%s would collide with its field %s; rename the event", m.Owner.Name, f.GoName, f.GoName)
		}
	}
	for _, name := range sortedKeys(methods) {
		off := methods[name]
		switch {
		case slices.Contains(deepcopyMethods, name):
			diags.Errorf(m.Tag.At(off), "state: the generated method %s.%s would collide with the deepcopy method of that name (DeepCopy, DeepCopyInto and DeepCopyObject are reserved); rename the event", m.Owner.Name, name)
		case slices.Contains(m.Owner.Methods, name):
			diags.Errorf(m.Tag.At(off), "state: the generated method %s.%s would collide with the method %s declared on %s; rename the event or the method", m.Owner.Name, name, name, m.Owner.Name)
		}
	}
	reported := map[string]bool{}
	for _, t := range m.Transitions {
		for _, helper := range []string{n.Fire, n.Transitions, n.Init} {
			if t.Event == helper || t.Event+"With" == helper || "Can"+t.Event == helper {
				diags.Errorf(m.Tag.At(t.EventOff), "state: event %s would generate a method named like the helper %s.%s; rename the event", t.Event, m.Owner.Name, helper)
			}
		}
		for _, o := range m.Events {
			if (o+"With" == t.Event || "Can"+o == t.Event) && !reported[t.Event+" "+o] {
				reported[t.Event+" "+o] = true // once, whatever the number of transitions the event has
				diags.Errorf(m.Tag.At(t.EventOff), "state: event %s collides with the method generated for event %s; rename one", t.Event, o)
			}
		}
	}
	for _, name := range n.packageLevel() {
		if pos, ok := m.Owner.Pkg.Declared(name); ok {
			diags.Errorf(m.Tag.At(0), "state: the generated identifier %s would collide with the declaration at %s; rename that declaration or the phase type %s", name, pos, m.Name)
		}
	}
	return diags
}

func sortedKeys(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
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
	if rs := []rune(s); upper > 1 && upper < len(rs) {
		return string(toLower(string(rs[:upper-1]))) + string(rs[upper-1:])
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
