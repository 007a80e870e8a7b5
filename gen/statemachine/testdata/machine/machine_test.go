package machine

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/modelgen/modelgen/statemachine"
)

// shop implements OrderPhaseHooks: its guards read its fields, its hooks
// write the status's log.
type shop struct {
	cleared, stocked bool
}

func (h shop) PaymentCleared(s *OrderStatus, t OrderPhaseTransition) error {
	if !h.cleared {
		return errors.New("payment pending")
	}
	return nil
}

func (h shop) InStock(s *OrderStatus, t OrderPhaseTransition) error {
	if !h.stocked {
		return errors.New("out of stock")
	}
	return nil
}

func (shop) OnExit(s *OrderStatus, t OrderPhaseTransition) {
	s.Log = append(s.Log, "exit "+string(t.From))
}

func (shop) OnEnter(s *OrderStatus, t OrderPhaseTransition) {
	s.Log = append(s.Log, "enter "+string(t.To)+" on "+string(t.Event))
}

var _ OrderPhaseHooks = shop{}

func TestHappyPath(t *testing.T) {
	var s OrderStatus
	if !s.InitPhase() || s.Phase != Draft || s.InitPhase() {
		t.Fatalf("InitPhase: %q", s.Phase)
	}
	h := shop{cleared: true, stocked: true}
	for _, step := range []func() error{
		s.Place,
		func() error { return s.PayWith(h) },
		func() error { return s.ShipWith(h) },
		func() error { return s.DeliverWith(h) },
	} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	if s.Phase != Delivered {
		t.Errorf("phase %q, want Delivered", s.Phase)
	}
	want := "exit Placed,enter Paid on Pay,exit Paid,enter Shipped on Ship,exit Shipped,enter Delivered on Deliver"
	if got := strings.Join(s.Log, ","); got != want {
		t.Errorf("hooks ran as\n%s\nwant\n%s", got, want)
	}
}

func TestGuardRefuses(t *testing.T) {
	s := OrderStatus{Phase: Placed}
	err := s.PayWith(shop{cleared: false})
	var te *statemachine.TransitionError
	if !errors.As(err, &te) || te.Reason != statemachine.GuardRefused || te.Guard != "PaymentCleared" || te.To != "Paid" {
		t.Fatalf("PayWith: %v", err)
	}
	if te.Machine != "OrderPhase" || te.State != "Placed" || te.Event != "Pay" {
		t.Errorf("error names %s %s %s", te.Machine, te.State, te.Event)
	}
	if err.Error() != "OrderPhase: cannot Pay from Placed: guard refused (PaymentCleared, to Paid): payment pending" {
		t.Errorf("message: %v", err)
	}
	if s.Phase != Placed || len(s.Log) != 0 {
		t.Errorf("a refused transition changed the status: %+v", s)
	}
	if err := s.FirePhase(OrderPhaseEventPay, nil); !errors.Is(err, statemachine.ErrNoHooks) {
		t.Errorf("a guarded event without hooks: %v", err)
	}
}

func TestRefusals(t *testing.T) {
	for _, c := range []struct {
		from OrderPhase
		fire func(*OrderStatus) error
		is   error
	}{
		{Draft, (*OrderStatus).Deliver, statemachine.ErrNoTransition},
		{Delivered, (*OrderStatus).Cancel, statemachine.ErrTerminal},
		{Cancelled, (*OrderStatus).Place, statemachine.ErrTerminal},
		{"", (*OrderStatus).Place, statemachine.ErrUnknownState},
		{Shipped, (*OrderStatus).Cancel, statemachine.ErrNoTransition},
	} {
		s := OrderStatus{Phase: c.from}
		if err := c.fire(&s); !errors.Is(err, c.is) || s.Phase != c.from {
			t.Errorf("from %q: %v (phase %q), want %v", c.from, err, s.Phase, c.is)
		}
	}
}

func TestCancelFromEverySource(t *testing.T) {
	for _, from := range []OrderPhase{Draft, Placed, Paid} {
		s := OrderStatus{Phase: from}
		if !s.CanCancel() {
			t.Errorf("CanCancel from %s", from)
		}
		if err := s.Cancel(); err != nil || s.Phase != Cancelled {
			t.Errorf("Cancel from %s: %v, %s", from, err, s.Phase)
		}
	}
}

func TestQueries(t *testing.T) {
	s := OrderStatus{Phase: Paid}
	var got []string
	for _, tr := range s.PhaseTransitions() {
		got = append(got, tr.String())
	}
	if strings.Join(got, "; ") != "Paid -Ship-> Shipped [InStock]; Paid -Cancel-> Cancelled" {
		t.Errorf("PhaseTransitions: %v", got)
	}
	if !s.CanShip() || s.CanPay() || s.CanDeliver() {
		t.Error("Can queries are wrong")
	}
	m := OrderPhaseMachine()
	if m.Name() != "OrderPhase" || m.Initial() != Draft || len(m.States()) != 6 || len(m.Transitions()) != 7 {
		t.Errorf("definition: %s %s %d states %d transitions", m.Name(), m.Initial(), len(m.States()), len(m.Transitions()))
	}
	if !m.Terminal(Delivered) || !m.Terminal(Cancelled) || m.Terminal(Shipped) {
		t.Error("terminal states are wrong")
	}
}

func TestFireByEvent(t *testing.T) {
	s := OrderStatus{Phase: Draft}
	h := shop{cleared: true, stocked: true}
	for _, ev := range []OrderPhaseEvent{OrderPhaseEventPlace, OrderPhaseEventPay, OrderPhaseEventShip, OrderPhaseEventDeliver} {
		if err := s.FirePhase(ev, h); err != nil {
			t.Fatal(err)
		}
	}
	if s.Phase != Delivered {
		t.Errorf("phase %s", s.Phase)
	}
}

// noLog hooks admit everything and write nothing, to count allocations.
type noLog struct{ OrderPhaseNoHooks }

func (noLog) PaymentCleared(*OrderStatus, OrderPhaseTransition) error { return nil }
func (noLog) InStock(*OrderStatus, OrderPhaseTransition) error        { return nil }

// TestNoAllocations: firing allocates nothing. With hooks the status is
// handed to the application's interface, so it must already live on the
// heap, as a status inside an API object does.
func TestNoAllocations(t *testing.T) {
	var h OrderPhaseHooks = noLog{}
	s := &OrderStatus{}
	allocs := testing.AllocsPerRun(1000, func() {
		s.Phase = Draft
		_ = s.Place()
		_ = s.PayWith(h)
		_ = s.ShipWith(h)
		_ = s.CanPay()
		_ = s.FirePhase(OrderPhaseEventDeliver, h)
	})
	if allocs != 0 || s.Phase != Delivered {
		t.Errorf("%v allocations (phase %s), want 0", allocs, s.Phase)
	}
	allocs = testing.AllocsPerRun(1000, func() {
		local := OrderStatus{Phase: Draft}
		_ = local.Place()
		_ = local.Cancel()
	})
	if allocs != 0 {
		t.Errorf("%v allocations without hooks on a local status, want 0", allocs)
	}
}

// TestConcurrentUse drives many orders through the shared definition at
// once; run with -race.
func TestConcurrentUse(t *testing.T) {
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h := shop{cleared: true, stocked: g%2 == 0}
			for range 200 {
				s := OrderStatus{Phase: Draft}
				_ = s.Place()
				_ = s.PayWith(h)
				if err := s.ShipWith(h); (err == nil) != h.stocked {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func Example() {
	var s OrderStatus
	s.InitPhase()
	fmt.Println(s.Place(), s.Phase)
	fmt.Println(s.PayWith(shop{cleared: false}))
	fmt.Println(s.PayWith(shop{cleared: true}), s.Phase, s.Log)
	// Output:
	// <nil> Placed
	// OrderPhase: cannot Pay from Placed: guard refused (PaymentCleared, to Paid): payment pending
	// <nil> Paid [exit Placed enter Paid on Pay]
}

// TestMethodsAgreeWithDefinition: the generated methods dispatch with a
// switch of their own; for every state (and a non-state) and every event,
// they must do exactly what the runtime definition does.
func TestMethodsAgreeWithDefinition(t *testing.T) {
	m := OrderPhaseMachine()
	h := shop{cleared: true, stocked: true}
	plain := map[OrderPhaseEvent]func(*OrderStatus) error{
		OrderPhaseEventPlace:   (*OrderStatus).Place,
		OrderPhaseEventDeliver: (*OrderStatus).Deliver,
		OrderPhaseEventCancel:  (*OrderStatus).Cancel,
	}
	with := map[OrderPhaseEvent]func(*OrderStatus, OrderPhaseHooks) error{
		OrderPhaseEventPlace:   (*OrderStatus).PlaceWith,
		OrderPhaseEventPay:     (*OrderStatus).PayWith,
		OrderPhaseEventShip:    (*OrderStatus).ShipWith,
		OrderPhaseEventDeliver: (*OrderStatus).DeliverWith,
		OrderPhaseEventCancel:  (*OrderStatus).CancelWith,
	}
	can := map[OrderPhaseEvent]func(*OrderStatus) bool{
		OrderPhaseEventPlace: (*OrderStatus).CanPlace, OrderPhaseEventPay: (*OrderStatus).CanPay,
		OrderPhaseEventShip: (*OrderStatus).CanShip, OrderPhaseEventDeliver: (*OrderStatus).CanDeliver,
		OrderPhaseEventCancel: (*OrderStatus).CanCancel,
	}
	for _, from := range append(m.States(), "", "Lost") {
		for ev, fire := range with {
			want := from
			wantErr := statemachine.Fire(m, &want, ev, orderPhaseHookAdapter{&OrderStatus{}, h})
			s := OrderStatus{Phase: from}
			err := fire(&s, h)
			if s.Phase != want || fmt.Sprint(err) != fmt.Sprint(wantErr) {
				t.Errorf("%sWith from %q: %q %v, the definition says %q %v", ev, from, s.Phase, err, want, wantErr)
			}
			if can[ev](&OrderStatus{Phase: from}) != m.Can(from, ev) {
				t.Errorf("Can%s from %q disagrees with the definition", ev, from)
			}
			if p, ok := plain[ev]; ok {
				want := from
				wantErr := m.Fire(&want, ev)
				s := OrderStatus{Phase: from}
				err := p(&s)
				if s.Phase != want || fmt.Sprint(err) != fmt.Sprint(wantErr) {
					t.Errorf("%s from %q: %q %v, the definition says %q %v", ev, from, s.Phase, err, want, wantErr)
				}
			}
		}
	}
}

// TestNilHooks: <Event>With(nil) is what FirePhase(ev, nil) is: no hook
// runs, an unguarded transition moves, a guarded one is refused with
// ErrNoHooks; none panics.
func TestNilHooks(t *testing.T) {
	s := OrderStatus{Phase: Draft}
	if err := s.PlaceWith(nil); err != nil || s.Phase != Placed {
		t.Fatalf("PlaceWith(nil): %v, phase %q", err, s.Phase)
	}
	if err := s.PayWith(nil); !errors.Is(err, statemachine.ErrNoHooks) || s.Phase != Placed {
		t.Errorf("PayWith(nil): %v, phase %q, want ErrNoHooks and no move", err, s.Phase)
	}
	if err := s.CancelWith(nil); err != nil || s.Phase != Cancelled {
		t.Errorf("CancelWith(nil): %v, phase %q", err, s.Phase)
	}
	s = OrderStatus{Phase: Draft}
	if err := s.FirePhase(OrderPhaseEventPlace, nil); err != nil || s.Phase != Placed {
		t.Errorf("FirePhase(Place, nil): %v, phase %q", err, s.Phase)
	}
}
