// Package statemachine is the runtime of the state machines modelgen
// generates from a `state` struct tag. It imports only the standard library,
// so an application pays nothing for the generator's dependencies.
//
// # Machines
//
// A [Machine] is the definition of a lifecycle over a string-based state type
// (such as `type PaymentPhase string`) and an event type: its name, initial
// state, states and transitions. It is built once, usually by generated code
// at package initialisation, and never changes afterwards, so one machine may
// be used by any number of goroutines at once. What a transition changes is
// the caller's state variable: guarding that variable is the caller's job
// (in a Kubernetes controller it belongs to one reconcile).
//
// A state with no transition out of it is terminal.
//
// # Firing events
//
// [Machine.Fire] looks the transition up for the current state and the event
// and moves the state. [Fire] does the same with [Hooks]: the guard of a
// guarded transition is asked first, then the exit hook runs, the state
// changes, and the entry hook runs. [Take] is Fire for generated code, which
// already knows the transition's index. A successful transition allocates
// nothing; hooks are a type parameter, so passing a struct does not box it.
//
// Every refusal is a [*TransitionError] naming the machine, the state, the
// event and the [Reason]; errors.Is matches it against [ErrNoTransition],
// [ErrGuardRefused], [ErrTerminal] and [ErrUnknownState].
//
// # Generated code
//
// modelgen writes, beside the type that carries the tag, a typed event type,
// one method per event on that type (status.Authorize()), Can queries, and a
// hooks interface with one method per guard, so that a missing guard is a
// compile error. The event methods dispatch with a switch on the phase and
// call this package to refuse, to run guards and hooks, and for events fired
// by value. See docs/state-machines.md in the modelgen repository for the
// tag grammar.
package statemachine
