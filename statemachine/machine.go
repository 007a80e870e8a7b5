package statemachine

import (
	"errors"
	"fmt"
	"slices"
)

// State is a machine's state type: a string-based type.
type State interface{ ~string }

// Event is a machine's event type: a string-based type.
type Event interface{ ~string }

// Transition moves a subject from one state to another when an event fires.
type Transition[S State, E Event] struct {
	From  S
	Event E
	To    S
	// Guard names the guard that must admit the transition; "" means none.
	Guard string
}

// Machine is an immutable machine definition, safe for concurrent use.
type Machine[S State, E Event] struct {
	name    string
	initial S
	states  []S
	index   map[S]int            // nil for small machines, which scan states instead
	out     [][]Transition[S, E] // by state index, in declaration order
	all     []Transition[S, E]
}

// New builds a machine. The states are listed in the order they should be
// reported; every transition must name listed states, a non-empty event,
// and no two transitions may leave one state on one event.
func New[S State, E Event](name string, initial S, states []S, transitions []Transition[S, E]) (*Machine[S, E], error) {
	m := &Machine[S, E]{
		name:    name,
		initial: initial,
		states:  slices.Clone(states),
		out:     make([][]Transition[S, E], len(states)),
		all:     slices.Clone(transitions),
	}
	if err := m.indexStates(); err != nil {
		return nil, err
	}
	if err := m.indexTransitions(); err != nil {
		return nil, err
	}
	return m, nil
}

// MustNew is New for definitions known to be valid (generated code); it
// panics on an error.
func MustNew[S State, E Event](name string, initial S, states []S, transitions []Transition[S, E]) *Machine[S, E] {
	m, err := New(name, initial, states, transitions)
	if err != nil {
		panic(err)
	}
	return m
}

func (m *Machine[S, E]) indexStates() error {
	if m.name == "" {
		return errors.New("statemachine: the machine has no name")
	}
	for i, s := range m.states {
		if s == "" {
			return fmt.Errorf("statemachine: %s: state %d is empty", m.name, i)
		}
		if slices.Index(m.states, s) != i {
			return fmt.Errorf("statemachine: %s: state %q is listed twice", m.name, s)
		}
	}
	if len(m.states) > scanLimit {
		m.index = make(map[S]int, len(m.states))
		for i, s := range m.states {
			m.index[s] = i
		}
	}
	if _, ok := m.find(m.initial); !ok {
		return fmt.Errorf("statemachine: %s: the initial state %q is not a state", m.name, m.initial)
	}
	return nil
}

// scanLimit is the number of states up to which a linear scan finds a state
// faster than a map: states usually share their constant's bytes, so most
// comparisons stop at the length or the pointer.
const scanLimit = 12

// find returns the index of a state.
func (m *Machine[S, E]) find(s S) (int, bool) {
	if m.index != nil {
		i, ok := m.index[s]
		return i, ok
	}
	for i := range m.states {
		if m.states[i] == s {
			return i, true
		}
	}
	return 0, false
}

func (m *Machine[S, E]) indexTransitions() error {
	for _, t := range m.all {
		from, okFrom := m.find(t.From)
		_, okTo := m.find(t.To)
		switch {
		case !okFrom:
			return fmt.Errorf("statemachine: %s: transition %s: %q is not a state", m.name, t, t.From)
		case !okTo:
			return fmt.Errorf("statemachine: %s: transition %s: %q is not a state", m.name, t, t.To)
		case t.Event == "":
			return fmt.Errorf("statemachine: %s: transition %s has no event", m.name, t)
		}
		for _, o := range m.out[from] {
			if o.Event == t.Event {
				return fmt.Errorf("statemachine: %s: %q leaves %q for both %q and %q", m.name, t.Event, t.From, o.To, t.To)
			}
		}
		m.out[from] = append(m.out[from], t)
	}
	return nil
}

func (t Transition[S, E]) String() string {
	s := string(t.From) + " -" + string(t.Event) + "-> " + string(t.To)
	if t.Guard != "" {
		s += " [" + t.Guard + "]"
	}
	return s
}

// Name is the machine's name (the state type's name in generated code).
func (m *Machine[S, E]) Name() string { return m.name }

// Initial is the state every subject starts in.
func (m *Machine[S, E]) Initial() S { return m.initial }

// States returns the states in declaration order.
func (m *Machine[S, E]) States() []S { return slices.Clone(m.states) }

// Transitions returns every transition in declaration order.
func (m *Machine[S, E]) Transitions() []Transition[S, E] { return slices.Clone(m.all) }

// From returns the transitions that leave a state.
func (m *Machine[S, E]) From(s S) []Transition[S, E] {
	i, ok := m.find(s)
	if !ok {
		return nil
	}
	return slices.Clone(m.out[i])
}

// Has reports whether s is a state of the machine.
func (m *Machine[S, E]) Has(s S) bool {
	_, ok := m.find(s)
	return ok
}

// Terminal reports whether s is a state no transition leaves.
func (m *Machine[S, E]) Terminal(s S) bool {
	i, ok := m.find(s)
	return ok && len(m.out[i]) == 0
}

// Can reports whether ev has a transition out of from. Guards are not asked.
func (m *Machine[S, E]) Can(from S, ev E) bool {
	_, r := m.lookup(from, ev)
	return r == 0
}

// Lookup finds the transition ev takes out of from; the error is a
// *TransitionError when there is none.
func (m *Machine[S, E]) Lookup(from S, ev E) (Transition[S, E], error) {
	t, r := m.lookup(from, ev)
	if r != 0 {
		return t, m.refuse(from, ev, r)
	}
	return t, nil
}

// lookup is Lookup without the error value, which would allocate.
func (m *Machine[S, E]) lookup(from S, ev E) (Transition[S, E], Reason) {
	i, ok := m.find(from)
	if !ok {
		return Transition[S, E]{}, UnknownState
	}
	out := m.out[i]
	for k := range out {
		if out[k].Event == ev {
			return out[k], 0
		}
	}
	if len(out) == 0 {
		return Transition[S, E]{}, Terminal
	}
	return Transition[S, E]{}, NoTransition
}

// Fire moves *state along the transition ev takes out of it, without hooks.
// A guarded transition is refused (with ErrNoHooks as the cause): use the
// function Fire with the application's hooks for those.
func (m *Machine[S, E]) Fire(state *S, ev E) error {
	if t := m.transition(*state, ev); t != nil && t.Guard == "" {
		*state = t.To
		return nil
	}
	return Fire(m, state, ev, NoHooks[S, E]{}) // the refusal, with its reason
}

// transition is the fast path of a lookup: the transition ev takes out of
// from, or nil.
func (m *Machine[S, E]) transition(from S, ev E) *Transition[S, E] {
	i, ok := m.find(from)
	if !ok {
		return nil
	}
	out := m.out[i]
	for k := range out {
		if out[k].Event == ev {
			return &out[k]
		}
	}
	return nil
}

func (m *Machine[S, E]) refuse(from S, ev E, r Reason) *TransitionError {
	return &TransitionError{Machine: m.name, State: string(from), Event: string(ev), Reason: r}
}
