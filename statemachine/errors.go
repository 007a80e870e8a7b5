package statemachine

import "errors"

// Reason says why a transition was refused.
type Reason int

const (
	// NoTransition: the event has no transition out of the current state.
	NoTransition Reason = iota + 1
	// GuardRefused: the transition's guard returned an error.
	GuardRefused
	// Terminal: the current state is terminal; no event leaves it.
	Terminal
	// UnknownState: the current value is not a state of the machine (for
	// example the zero value before the subject was started).
	UnknownState
)

func (r Reason) String() string {
	switch r {
	case NoTransition:
		return "no such transition"
	case GuardRefused:
		return "guard refused"
	case Terminal:
		return "terminal state"
	case UnknownState:
		return "unknown state"
	}
	return "unknown reason"
}

// Sentinels for errors.Is, one per Reason.
var (
	ErrNoTransition = errors.New(NoTransition.String())
	ErrGuardRefused = errors.New(GuardRefused.String())
	ErrTerminal     = errors.New(Terminal.String())
	ErrUnknownState = errors.New(UnknownState.String())
)

var sentinels = map[Reason]error{
	NoTransition: ErrNoTransition,
	GuardRefused: ErrGuardRefused,
	Terminal:     ErrTerminal,
	UnknownState: ErrUnknownState,
}

// TransitionError is a refused transition.
type TransitionError struct {
	Machine string // the machine's name
	State   string // the state the subject was in
	Event   string // the event that was fired
	Reason  Reason
	// To and Guard name the target and the guard of a refused guarded
	// transition; Err is the guard's error.
	To    string
	Guard string
	Err   error
}

func (e *TransitionError) Error() string {
	msg := e.Machine + ": cannot " + e.Event + " from " + shown(e.State) + ": " + e.Reason.String()
	if e.Reason == GuardRefused {
		msg += " (" + e.Guard + ", to " + e.To + ")"
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// shown makes the zero state visible in a message.
func shown(s string) string {
	if s == "" {
		return `""`
	}
	return s
}

// Unwrap returns the guard's error.
func (e *TransitionError) Unwrap() error { return e.Err }

// Is matches the sentinel of the error's reason.
func (e *TransitionError) Is(target error) bool { return sentinels[e.Reason] == target }
