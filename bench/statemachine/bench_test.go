package statemachine

import (
	"context"
	"testing"

	"github.com/looplab/fsm"
	"github.com/qmuntal/stateless"

	"github.com/modelgen/modelgen/bench/statemachine/order"
)

// Every benchmark performs the same transition, Submitted -Authorize->
// Authorized, once per iteration, on a machine that knows all of
// PaymentOrder's transitions; the state is reset to Submitted before each
// transition.

// BenchmarkModelgen calls the generated method.
func BenchmarkModelgen(b *testing.B) {
	s := &order.PaymentOrderStatus{}
	b.ReportAllocs()
	for b.Loop() {
		s.Phase = order.PhaseSubmitted
		if err := s.Authorize(); err != nil {
			b.Fatal(err)
		}
	}
}

// noHooks satisfies the generated hooks interface.
type noHooks struct{ order.PaymentPhaseNoHooks }

// BenchmarkModelgenWithHooks fires through the hooks interface (entry and
// exit hooks are called).
func BenchmarkModelgenWithHooks(b *testing.B) {
	s := &order.PaymentOrderStatus{}
	var h order.PaymentPhaseHooks = noHooks{}
	b.ReportAllocs()
	for b.Loop() {
		s.Phase = order.PhaseSubmitted
		if err := s.AuthorizeWith(h); err != nil {
			b.Fatal(err)
		}
	}
}

func newLooplab() *fsm.FSM {
	return fsm.NewFSM("Submitted", fsm.Events{
		{Name: "Authorize", Src: []string{"Submitted"}, Dst: "Authorized"},
		{Name: "Process", Src: []string{"Authorized"}, Dst: "Processed"},
		{Name: "Settle", Src: []string{"Processed"}, Dst: "Settled"},
		{Name: "Retry", Src: []string{"Processed"}, Dst: "Submitted"},
		{Name: "Refund", Src: []string{"Settled"}, Dst: "Refunded"},
	}, fsm.Callbacks{})
}

// BenchmarkLooplabFSM fires the event with github.com/looplab/fsm v1.0.3.
func BenchmarkLooplabFSM(b *testing.B) {
	m := newLooplab()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		m.SetState("Submitted")
		if err := m.Event(ctx, "Authorize"); err != nil {
			b.Fatal(err)
		}
	}
}

func newStateless(state *string) *stateless.StateMachine {
	m := stateless.NewStateMachineWithExternalStorage(
		func(context.Context) (stateless.State, error) { return *state, nil },
		func(_ context.Context, s stateless.State) error { *state = s.(string); return nil },
		stateless.FiringImmediate)
	m.Configure("Submitted").Permit("Authorize", "Authorized")
	m.Configure("Authorized").Permit("Process", "Processed")
	m.Configure("Processed").Permit("Settle", "Settled").Permit("Retry", "Submitted")
	m.Configure("Settled").Permit("Refund", "Refunded")
	m.Configure("Refunded")
	return m
}

// BenchmarkStateless fires the trigger with github.com/qmuntal/stateless
// v1.7.2 (external state storage, immediate firing).
func BenchmarkStateless(b *testing.B) {
	state := "Submitted"
	m := newStateless(&state)
	b.ReportAllocs()
	for b.Loop() {
		state = "Submitted"
		if err := m.Fire("Authorize"); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSameTransition checks that every contender really moves Submitted
// to Authorized and refuses an event the state has no transition for.
func TestSameTransition(t *testing.T) {
	s := &order.PaymentOrderStatus{Phase: order.PhaseSubmitted}
	if err := s.Authorize(); err != nil || s.Phase != order.PhaseAuthorized || s.Authorize() == nil {
		t.Errorf("modelgen: %v %s", err, s.Phase)
	}
	l := newLooplab()
	if err := l.Event(context.Background(), "Authorize"); err != nil || l.Current() != "Authorized" || l.Event(context.Background(), "Authorize") == nil {
		t.Errorf("looplab: %v %s", err, l.Current())
	}
	state := "Submitted"
	m := newStateless(&state)
	if err := m.Fire("Authorize"); err != nil || state != "Authorized" || m.Fire("Authorize") == nil {
		t.Errorf("stateless: %v %s", err, state)
	}
}
