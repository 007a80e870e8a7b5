package statemachine_test

import (
	"errors"
	"fmt"

	"github.com/modelgen/modelgen/statemachine"
)

type Phase string

type Event string

const (
	Submitted  Phase = "Submitted"
	Authorized Phase = "Authorized"
	Settled    Phase = "Settled"
)

var payment = statemachine.MustNew("Phase", Submitted,
	[]Phase{Submitted, Authorized, Settled},
	[]statemachine.Transition[Phase, Event]{
		{From: Submitted, Event: "Authorize", To: Authorized},
		{From: Authorized, Event: "Settle", To: Settled, Guard: "Funded"},
	})

// audit records what happens and admits the Funded guard.
type audit struct{ funded bool }

func (a audit) Guard(t statemachine.Transition[Phase, Event]) error {
	if !a.funded {
		return errors.New("the payer's account is not funded")
	}
	return nil
}

func (audit) Exit(t statemachine.Transition[Phase, Event])  { fmt.Println("leaving", t.From) }
func (audit) Enter(t statemachine.Transition[Phase, Event]) { fmt.Println("entering", t.To) }

func ExampleMachine_Fire() {
	phase := payment.Initial()
	if err := payment.Fire(&phase, "Authorize"); err != nil {
		fmt.Println(err)
	}
	fmt.Println(phase)
	// Output: Authorized
}

func ExampleFire() {
	phase := Authorized
	err := statemachine.Fire(payment, &phase, "Settle", audit{funded: false})
	fmt.Println(err)
	fmt.Println(errors.Is(err, statemachine.ErrGuardRefused), phase)

	err = statemachine.Fire(payment, &phase, "Settle", audit{funded: true})
	fmt.Println(err, phase)
	// Output:
	// Phase: cannot Settle from Authorized: guard refused (Funded, to Settled): the payer's account is not funded
	// true Authorized
	// leaving Authorized
	// entering Settled
	// <nil> Settled
}

func ExampleTransitionError() {
	phase := Settled
	err := payment.Fire(&phase, "Authorize")
	var te *statemachine.TransitionError
	if errors.As(err, &te) {
		fmt.Println(te.Machine, te.State, te.Event, te.Reason)
	}
	fmt.Println(errors.Is(err, statemachine.ErrTerminal))
	// Output:
	// Phase Settled Authorize terminal state
	// true
}

func ExampleMachine_Lookup() {
	t, err := payment.Lookup(Submitted, "Authorize")
	fmt.Println(t, err)
	_, err = payment.Lookup(Submitted, "Settle")
	fmt.Println(err)
	// Output:
	// Submitted -Authorize-> Authorized <nil>
	// Phase: cannot Settle from Submitted: no such transition
}

// The index passed to Take is the transition's position in Transitions,
// which generated code knows for each state.
func ExampleTake() {
	phase := Submitted
	err := statemachine.Take(payment, &phase, 0, "Authorize", statemachine.NoHooks[Phase, Event]{})
	fmt.Println(err, phase)
	err = statemachine.Take(payment, &phase, -1, "Authorize", statemachine.NoHooks[Phase, Event]{})
	fmt.Println(err)
	// Output:
	// <nil> Authorized
	// Phase: cannot Authorize from Authorized: no such transition
}
