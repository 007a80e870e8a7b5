package statemachine

import "errors"

// Hooks are the application's callbacks around one transition of one
// subject. Generated code adapts its typed hooks interface to this one.
type Hooks[S State, E Event] interface {
	// Guard is asked before a guarded transition; a non-nil error refuses it
	// and nothing changes.
	Guard(t Transition[S, E]) error
	// Exit runs before the state leaves t.From.
	Exit(t Transition[S, E])
	// Enter runs after the state became t.To.
	Enter(t Transition[S, E])
}

// ErrNoHooks is the cause of a guarded transition fired without hooks.
var ErrNoHooks = errors.New("a guarded transition needs hooks")

// ErrUnknownGuard is returned by generated hooks for a guard they do not
// know; it means a definition and its hooks come from different runs.
var ErrUnknownGuard = errors.New("unknown guard")

// NoHooks runs no hooks and refuses every guarded transition.
type NoHooks[S State, E Event] struct{}

// Guard refuses: without hooks no guard can be asked.
func (NoHooks[S, E]) Guard(Transition[S, E]) error { return ErrNoHooks }

// Exit does nothing.
func (NoHooks[S, E]) Exit(Transition[S, E]) {}

// Enter does nothing.
func (NoHooks[S, E]) Enter(Transition[S, E]) {}

// Fire moves *state along the transition ev takes out of it: it asks the
// guard of a guarded transition, runs the exit hook, sets the state and runs
// the entry hook. On an error *state is unchanged and no hook ran (except
// the refusing guard). The hooks are a type parameter, not an interface
// value, so passing a struct does not allocate. Nil hooks (a nil interface
// value of type H) are no hooks, as NoHooks: no hook runs and a guarded
// transition is refused with ErrNoHooks.
func Fire[S State, E Event, H Hooks[S, E]](m *Machine[S, E], state *S, ev E, h H) error {
	if isNil(h) {
		return Fire(m, state, ev, NoHooks[S, E]{})
	}
	t, err := m.Lookup(*state, ev)
	if err != nil {
		return err
	}
	if t.Guard != "" {
		if err := h.Guard(t); err != nil {
			return &TransitionError{Machine: m.name, State: string(t.From), Event: string(ev), Reason: GuardRefused, To: string(t.To), Guard: t.Guard, Err: err}
		}
	}
	h.Exit(t)
	*state = t.To
	h.Enter(t)
	return nil
}

// Take is Fire for generated code, which finds the index i of the
// transition (in Transitions order) with a switch on the state, faster than
// a lookup; i is -1 when the state has no transition on ev. A wrong index
// falls back to Fire, so Take is never less correct than Fire. Nil hooks
// are no hooks, as for Fire.
func Take[S State, E Event, H Hooks[S, E]](m *Machine[S, E], state *S, i int, ev E, h H) error {
	if isNil(h) {
		return Take(m, state, i, ev, NoHooks[S, E]{})
	}
	if uint(i) >= uint(len(m.all)) {
		return Fire(m, state, ev, h)
	}
	t := &m.all[i]
	if t.Event != ev || t.From != *state {
		return Fire(m, state, ev, h)
	}
	if t.Guard != "" {
		if err := h.Guard(*t); err != nil {
			return &TransitionError{Machine: m.name, State: string(t.From), Event: string(ev), Reason: GuardRefused, To: string(t.To), Guard: t.Guard, Err: err}
		}
	}
	h.Exit(*t)
	*state = t.To
	h.Enter(*t)
	return nil
}

// isNil reports a nil interface value passed as the hooks type parameter
// (a struct or a non-nil value never is; the comparison does not allocate).
func isNil[H any](h H) bool {
	return any(h) == nil
}
