package model

import (
	"fmt"
	"slices"
	"strings"

	"github.com/modelgen/modelgen/model/statetag"
)

// Machine is a checked state machine: the lifecycle of one phase field.
type Machine struct {
	// Name is the phase type's name; it names the machine everywhere
	// (generated identifiers, the OpenAPI extension, errors at run time).
	Name  string
	Owner *Type  // the struct that has the field
	Field *Field // the phase field
	Phase *Type  // the field's named string type
	Tag   Tag
	Spec  *statetag.Spec

	Initial string
	// States are the states the tag mentions, in the order the phase type
	// declares its constants.
	States      []MachineState
	Events      []string // in order of first appearance
	Transitions []MachineTransition
	Guards      []string // in order of first appearance
}

// MachineState is one state of a machine.
type MachineState struct {
	Value    string // the constant's value: what the field holds
	GoName   string // the constant's name
	Terminal bool   // no transition leaves it
}

// MachineTransition is one resolved transition (a clause with several sources is
// one MachineTransition per source, in the order written).
type MachineTransition struct {
	From, Event, To, Guard string
	// EventOff is the offset of the event in the tag, for diagnostics.
	EventOff int
}

// Terminal reports whether a state is terminal.
func (m *Machine) Terminal(state string) bool {
	for _, s := range m.States {
		if s.Value == state {
			return s.Terminal
		}
	}
	return false
}

// StateValues lists the states' values in order.
func (m *Machine) StateValues() []string {
	out := make([]string, len(m.States))
	for i, s := range m.States {
		out[i] = s.Value
	}
	return out
}

// From lists the transitions out of a state.
func (m *Machine) From(state string) []MachineTransition {
	var out []MachineTransition
	for _, t := range m.Transitions {
		if t.From == state {
			out = append(out, t)
		}
	}
	return out
}

// Guarded reports whether some transition on the event has a guard.
func (m *Machine) Guarded(event string) bool {
	return slices.ContainsFunc(m.Transitions, func(t MachineTransition) bool { return t.Event == event && t.Guard != "" })
}

// resolveMachines finds and checks every state tag of the model's struct types, in
// the model's type order. A machine with errors is left out; its
// diagnostics say why.
func resolveMachines(m *Model) ([]*Machine, Diagnostics) {
	var out []*Machine
	var diags Diagnostics
	byPhase := map[string]*Machine{}
	for _, t := range m.SortedTypes() {
		var first *Field
		for _, f := range t.Fields {
			if !f.StateTag.Set {
				continue
			}
			mc, d := resolveMachine(t, f)
			diags.Add(d)
			if first != nil {
				diags.Errorf(f.StateTag.Pos, "state: %s already has the state field %s; a struct may have one", t.Name, first.GoName)
				continue
			}
			first = f
			if mc == nil || d.HasErrors() {
				continue
			}
			key := mc.Phase.Pkg.Path + "." + mc.Name
			if prev, dup := byPhase[key]; dup {
				diags.Errorf(f.StateTag.Pos, "state: %s already drives the machine of %s.%s (%s); a phase type has one machine", mc.Name, prev.Owner.Name, prev.Field.GoName, prev.Tag.Pos)
				continue
			}
			byPhase[key] = mc
			out = append(out, mc)
		}
	}
	return out, diags
}

// Machine returns the checked machine of a struct type, or nil when it has
// none (or its tag has errors, which Load reports).
func (t *Type) Machine() *Machine {
	for _, f := range t.Fields {
		if f.Machine != nil {
			return f.Machine
		}
	}
	return nil
}

// resolveMachine parses a field's state tag and checks it against the field's
// type. It returns nil when the tag cannot describe a machine at all.
func resolveMachine(owner *Type, f *Field) (*Machine, Diagnostics) {
	var diags Diagnostics
	spec, errs := statetag.Parse(f.StateTag.Value)
	for _, e := range errs {
		diags.Errorf(f.StateTag.At(e.Off), "state: %s", e.Msg)
	}
	phase := phaseType(f)
	if phase == nil {
		diags.Errorf(f.StateTag.At(0), "state: %s.%s has type %s; a state field needs a named string type with constants", owner.Name, f.GoName, f.Type.GoType)
		return nil, diags
	}
	if len(errs) > 0 {
		return nil, diags
	}
	r := &machineResolver{m: &Machine{Name: phase.Name, Owner: owner, Field: f, Phase: phase, Tag: f.StateTag, Spec: spec}, diags: &diags}
	r.resolve()
	if f.JSONName != "" && !CELReadable(f.JSONName) {
		// no transition rule could read the phase
		diags.Errorf(f.StateTag.At(0), "state: %s, so it cannot enforce the %s state machine; rename the JSON property", CELUnreadable(f.JSONName), phase.Name)
	}
	return r.m, diags
}

// phaseType is the field's named string type, nil for anything else.
func phaseType(f *Field) *Type {
	t := f.Type
	if t == nil || t.Kind != KindString || t.Named == nil || t.Named.TypeKind != TypeScalar {
		return nil
	}
	return t.Named
}

type machineResolver struct {
	m     *Machine
	diags *Diagnostics
	// first is the offset where each state is first mentioned.
	first map[string]int
}

func (r *machineResolver) errorf(off int, format string, args ...any) {
	r.diags.Errorf(r.m.Tag.At(off), "state: "+format, args...)
}

func (r *machineResolver) resolve() {
	r.first = map[string]int{}
	r.states()
	if r.diags.HasErrors() {
		return
	}
	r.transitions()
	r.events()
	if r.m.Spec.Initial == nil {
		r.errorf(0, "no initial state: add initial=<state> (one of %s)", strings.Join(r.m.StateValues(), ", "))
		return
	}
	r.m.Initial = r.m.Spec.Initial.Text
	r.markTerminal()
	if !r.diags.HasErrors() {
		r.reachability()
	}
}

// states checks every state name against the phase constants and collects
// the machine's states in constant order.
func (r *machineResolver) states() {
	sp := r.m.Spec
	var names []statetag.Name
	if sp.Initial != nil {
		names = append(names, *sp.Initial)
	}
	names = append(names, sp.Terminal...)
	for _, t := range sp.Transitions {
		names = append(append(names, t.From...), t.To)
	}
	for _, n := range names {
		if _, seen := r.first[n.Text]; seen {
			continue
		}
		r.first[n.Text] = n.Off
		if r.constant(n.Text) == nil {
			r.errorf(n.Off, "%q is not a %s constant%s", n.Text, r.m.Phase.Name, r.hint(n.Text))
		}
	}
	for _, c := range r.m.Phase.Enum {
		if _, used := r.first[c.Value]; used {
			r.m.States = append(r.m.States, MachineState{Value: c.Value, GoName: c.GoName})
			continue
		}
		r.diags.Warnf(r.m.Tag.At(0), "state: %s constant %s (%q) is in no clause of the state tag; it is not a state of the machine", r.m.Phase.Name, c.GoName, c.Value)
	}
}

func (r *machineResolver) constant(value string) *EnumValue {
	for i, c := range r.m.Phase.Enum {
		if c.Value == value {
			return &r.m.Phase.Enum[i]
		}
	}
	return nil
}

// hint suggests the value when the tag names a constant by its Go name.
func (r *machineResolver) hint(name string) string {
	var values []string
	for _, c := range r.m.Phase.Enum {
		if c.GoName == name {
			return fmt.Sprintf(" (the tag names states by value: %s is %q)", c.GoName, c.Value)
		}
		values = append(values, c.Value)
	}
	if len(values) == 0 {
		return fmt.Sprintf(" (%s declares no constants)", r.m.Phase.Name)
	}
	return " (have " + strings.Join(values, ", ") + ")"
}

// transitions expands the clauses and refuses one (state, event) pair with
// two targets, or the same transition twice.
func (r *machineResolver) transitions() {
	type pair struct{ from, event string }
	seen := map[pair]MachineTransition{}
	for _, c := range r.m.Spec.Transitions {
		for _, from := range c.From {
			t := MachineTransition{From: from.Text, Event: c.Event.Text, To: c.To.Text, EventOff: c.Event.Off}
			if c.Guard != nil {
				t.Guard = c.Guard.Text
				r.addOnce(&r.m.Guards, t.Guard)
			}
			k := pair{t.From, t.Event}
			if prev, dup := seen[k]; dup {
				if prev.To == t.To {
					r.errorf(from.Off, "the transition %s->%s on %s is given twice", t.From, t.To, t.Event)
				} else {
					r.errorf(from.Off, "%s on %s leads to both %s and %s; an event takes one state to one target", t.From, t.Event, prev.To, t.To)
				}
				continue
			}
			seen[k] = t
			r.m.Transitions = append(r.m.Transitions, t)
			r.addOnce(&r.m.Events, t.Event)
		}
	}
	for _, g := range r.m.Guards {
		if g == "OnEnter" || g == "OnExit" {
			r.errorf(r.guardOff(g), "guard %s has the name of an entry/exit hook; choose another name", g)
		}
	}
}

func (r *machineResolver) guardOff(g string) int {
	for _, c := range r.m.Spec.Transitions {
		if c.Guard != nil && c.Guard.Text == g {
			return c.Guard.Off
		}
	}
	return 0
}

func (r *machineResolver) addOnce(list *[]string, s string) {
	if !slices.Contains(*list, s) {
		*list = append(*list, s)
	}
}

// events checks a declared event list against the transitions.
func (r *machineResolver) events() {
	declared := r.m.Spec.Events
	if declared == nil {
		return
	}
	var order []string
	for _, e := range declared {
		if slices.Contains(order, e.Text) {
			r.errorf(e.Off, "event %s is declared twice", e.Text)
			continue
		}
		order = append(order, e.Text)
		if !slices.Contains(r.m.Events, e.Text) {
			r.errorf(e.Off, "event %s has no transition", e.Text)
		}
	}
	for _, c := range r.m.Spec.Transitions {
		if !slices.Contains(order, c.Event.Text) {
			r.errorf(c.Event.Off, "event %s is not declared in events=", c.Event.Text)
		}
	}
	r.m.Events = order
}

// markTerminal marks states without a way out and checks explicit
// terminal= lists against them.
func (r *machineResolver) markTerminal() {
	explicit := r.m.Spec.Terminal
	for i := range r.m.States {
		s := &r.m.States[i]
		s.Terminal = len(r.m.From(s.Value)) == 0
		listed := slices.ContainsFunc(explicit, func(n statetag.Name) bool { return n.Text == s.Value })
		switch {
		case listed && !s.Terminal:
			r.errorf(r.terminalOff(s.Value), "%s is listed as terminal but has transitions out of it", s.Value)
		case explicit != nil && s.Terminal && !listed:
			r.errorf(r.first[s.Value], "%s is not terminal but has no way out: add a transition from it, or list it in terminal=", s.Value)
		}
	}
}

func (r *machineResolver) terminalOff(state string) int {
	for _, n := range r.m.Spec.Terminal {
		if n.Text == state {
			return n.Off
		}
	}
	return 0
}

// reachability refuses states the initial state cannot reach, and states
// that cannot reach any terminal state when the machine has one.
func (r *machineResolver) reachability() {
	reached := r.closure([]string{r.m.Initial}, func(t MachineTransition) (string, string) { return t.From, t.To })
	var terminals []string
	for _, s := range r.m.States {
		if !reached[s.Value] {
			r.errorf(r.first[s.Value], "%s is unreachable from the initial state %s", s.Value, r.m.Initial)
		}
		if s.Terminal {
			terminals = append(terminals, s.Value)
		}
	}
	if len(terminals) == 0 {
		return // a machine that runs forever (on <-> off) has no way out to check
	}
	finishing := r.closure(terminals, func(t MachineTransition) (string, string) { return t.To, t.From })
	for _, s := range r.m.States {
		if reached[s.Value] && !finishing[s.Value] {
			r.errorf(r.first[s.Value], "%s has no way out: no terminal state (%s) can be reached from it", s.Value, strings.Join(terminals, ", "))
		}
	}
}

// closure is the set of states reachable from start along the edges
// (edge returns from, to; reversed edges walk backwards).
func (r *machineResolver) closure(start []string, edge func(MachineTransition) (string, string)) map[string]bool {
	seen := map[string]bool{}
	queue := slices.Clone(start)
	for _, s := range start {
		seen[s] = true
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for _, t := range r.m.Transitions {
			if from, to := edge(t); from == s && !seen[to] {
				seen[to] = true
				queue = append(queue, to)
			}
		}
	}
	return seen
}
