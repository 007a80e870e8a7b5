package statemachine_test

import (
	"errors"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/modelgen/modelgen/statemachine"
)

func TestNewRejectsBadDefinitions(t *testing.T) {
	type tr = statemachine.Transition[Phase, Event]
	for name, c := range map[string]struct {
		initial Phase
		states  []Phase
		trs     []tr
		want    string
	}{
		"initial not a state": {"X", []Phase{Submitted}, nil, `initial state "X"`},
		"empty state":         {Submitted, []Phase{Submitted, ""}, nil, "state 1 is empty"},
		"duplicate state":     {Submitted, []Phase{Submitted, Submitted}, nil, "listed twice"},
		"unknown from":        {Submitted, []Phase{Submitted}, []tr{{From: "X", Event: "E", To: Submitted}}, `"X" is not a state`},
		"unknown to":          {Submitted, []Phase{Submitted}, []tr{{From: Submitted, Event: "E", To: "X"}}, `"X" is not a state`},
		"no event":            {Submitted, []Phase{Submitted}, []tr{{From: Submitted, To: Submitted}}, "has no event"},
		"two targets": {Submitted, []Phase{Submitted, Authorized, Settled}, []tr{
			{From: Submitted, Event: "E", To: Authorized}, {From: Submitted, Event: "E", To: Settled}}, "for both"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := statemachine.New("M", c.initial, c.states, c.trs)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("New: got %v, want an error containing %q", err, c.want)
			}
		})
	}
}

func TestReasons(t *testing.T) {
	for _, c := range []struct {
		from   Phase
		ev     Event
		reason statemachine.Reason
		is     error
	}{
		{Submitted, "Settle", statemachine.NoTransition, statemachine.ErrNoTransition},
		{Settled, "Settle", statemachine.Terminal, statemachine.ErrTerminal},
		{"", "Authorize", statemachine.UnknownState, statemachine.ErrUnknownState},
		{Authorized, "Settle", statemachine.GuardRefused, statemachine.ErrGuardRefused},
	} {
		phase := c.from
		err := payment.Fire(&phase, c.ev)
		var te *statemachine.TransitionError
		if !errors.As(err, &te) || te.Reason != c.reason || !errors.Is(err, c.is) {
			t.Errorf("Fire(%q, %q) = %v, want reason %v", c.from, c.ev, err, c.reason)
			continue
		}
		if te.Machine != "Phase" || te.State != string(c.from) || te.Event != string(c.ev) {
			t.Errorf("Fire(%q, %q): error names %q %q %q", c.from, c.ev, te.Machine, te.State, te.Event)
		}
		if phase != c.from {
			t.Errorf("Fire(%q, %q) moved the state to %q", c.from, c.ev, phase)
		}
	}
	phase := Authorized
	if err := payment.Fire(&phase, "Settle"); !errors.Is(err, statemachine.ErrNoHooks) {
		t.Errorf("guarded Fire without hooks: %v, want ErrNoHooks as the cause", err)
	}
}

func TestQueries(t *testing.T) {
	if !payment.Can(Submitted, "Authorize") || payment.Can(Submitted, "Settle") {
		t.Error("Can is wrong")
	}
	if !payment.Terminal(Settled) || payment.Terminal(Submitted) || payment.Terminal("nope") {
		t.Error("Terminal is wrong")
	}
	if !payment.Has(Settled) || payment.Has("nope") {
		t.Error("Has is wrong")
	}
	if got := payment.From(Submitted); len(got) != 1 || got[0].To != Authorized {
		t.Errorf("From(Submitted) = %v", got)
	}
	if got := payment.From("nope"); got != nil {
		t.Errorf("From(unknown) = %v", got)
	}
	states := payment.States()
	states[0] = "mutated"
	if payment.States()[0] != Submitted || len(payment.Transitions()) != 2 || payment.Name() != "Phase" {
		t.Error("the definition changed through a returned slice")
	}
}

type countingHooks struct{ exits, enters *int }

func (countingHooks) Guard(statemachine.Transition[Phase, Event]) error { return nil }
func (h countingHooks) Exit(statemachine.Transition[Phase, Event])      { *h.exits++ }
func (h countingHooks) Enter(statemachine.Transition[Phase, Event])     { *h.enters++ }

func TestSuccessfulTransitionDoesNotAllocate(t *testing.T) {
	var exits, enters int
	h := countingHooks{&exits, &enters}
	allocs := testing.AllocsPerRun(1000, func() {
		phase := Submitted
		if err := statemachine.Fire(payment, &phase, "Authorize", h); err != nil {
			t.Fatal(err)
		}
		if err := statemachine.Fire(payment, &phase, "Settle", h); err != nil {
			t.Fatal(err)
		}
		if err := payment.Fire(&phase, "Authorize"); err == nil {
			t.Fatal("left a terminal state")
		}
	})
	// the last Fire fails on purpose and allocates its error
	if allocs > 1 {
		t.Errorf("%v allocations per run, want only the failure's one", allocs)
	}
	allocs = testing.AllocsPerRun(1000, func() {
		phase := Submitted
		_ = payment.Fire(&phase, "Authorize")
		_ = payment.Can(phase, "Settle")
	})
	if allocs != 0 {
		t.Errorf("%v allocations per successful transition, want 0", allocs)
	}
}

// TestConcurrentUse fires events on one definition from many goroutines;
// run with -race.
func TestConcurrentUse(t *testing.T) {
	var wg sync.WaitGroup
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var exits, enters int
			for i := 0; i < 500; i++ {
				phase := payment.Initial()
				if err := statemachine.Fire(payment, &phase, "Authorize", countingHooks{&exits, &enters}); err != nil {
					t.Error(err)
					return
				}
				if err := statemachine.Fire(payment, &phase, "Settle", countingHooks{&exits, &enters}); err != nil || phase != Settled {
					t.Error(err, phase)
					return
				}
				_ = payment.From(Submitted)
				_ = payment.Fire(&phase, "Settle")
			}
		}()
	}
	wg.Wait()
}

// TestStandardLibraryOnly keeps the runtime free of the generator's
// dependencies.
func TestStandardLibraryOnly(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, p := range strings.Fields(string(out)) {
		if p != "github.com/modelgen/modelgen/statemachine" {
			t.Errorf("the runtime depends on %s, which is not in the standard library", p)
		}
	}
}

// TestLargeMachine covers machines past the linear-scan limit (a ring of 40
// states, each moved on by Next).
func TestLargeMachine(t *testing.T) {
	var states []Phase
	var trs []statemachine.Transition[Phase, Event]
	for i := 0; i < 40; i++ {
		states = append(states, Phase(strings.Repeat("s", i+1)))
	}
	for i := range states {
		trs = append(trs, statemachine.Transition[Phase, Event]{From: states[i], Event: "Next", To: states[(i+1)%len(states)]})
	}
	m, err := statemachine.New("Ring", states[0], states, trs)
	if err != nil {
		t.Fatal(err)
	}
	phase := m.Initial()
	for range 41 {
		if err := m.Fire(&phase, "Next"); err != nil {
			t.Fatal(err)
		}
	}
	if phase != states[1] || m.Has("x") || !m.Has(states[39]) {
		t.Errorf("after 41 steps: %q", phase)
	}
	if _, err := statemachine.New[Phase, Event]("Dup", states[0], append(states, states[3]), nil); err == nil {
		t.Error("a duplicate state in a large machine was accepted")
	}
}

// TestTakeFallsBack: a wrong index is never trusted.
func TestTakeFallsBack(t *testing.T) {
	for _, i := range []int{-1, 1, 7, 1 << 30} {
		phase := Submitted
		if err := statemachine.Take(payment, &phase, i, "Authorize", statemachine.NoHooks[Phase, Event]{}); err != nil || phase != Authorized {
			t.Errorf("Take with index %d: %v, %s", i, err, phase)
		}
	}
	phase := Authorized
	if err := statemachine.Take(payment, &phase, 1, "Settle", audit{funded: false}); !errors.Is(err, statemachine.ErrGuardRefused) {
		t.Errorf("Take on a guarded transition: %v", err)
	}
}

// TestNilHooksAreNoHooks: a nil Hooks interface value, passed to Fire or
// Take, runs no hook and refuses guarded transitions (ErrNoHooks), as
// NoHooks does, instead of panicking.
func TestNilHooksAreNoHooks(t *testing.T) {
	var none statemachine.Hooks[Phase, Event]
	phase := Submitted
	if err := statemachine.Fire(payment, &phase, "Authorize", none); err != nil || phase != Authorized {
		t.Errorf("Fire with nil hooks: %v, phase %q, want Authorized", err, phase)
	}
	if err := statemachine.Fire(payment, &phase, "Settle", none); !errors.Is(err, statemachine.ErrNoHooks) || phase != Authorized {
		t.Errorf("guarded Fire with nil hooks: %v, phase %q, want ErrNoHooks and no move", err, phase)
	}
	phase = Submitted
	if err := statemachine.Take(payment, &phase, 0, "Authorize", none); err != nil || phase != Authorized {
		t.Errorf("Take with nil hooks: %v, phase %q, want Authorized", err, phase)
	}
	if err := statemachine.Take(payment, &phase, 1, "Settle", none); !errors.Is(err, statemachine.ErrNoHooks) || phase != Authorized {
		t.Errorf("guarded Take with nil hooks: %v, phase %q, want ErrNoHooks and no move", err, phase)
	}
}
