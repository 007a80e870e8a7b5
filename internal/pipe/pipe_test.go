package pipe

import (
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// The results come back in the order the items were sent, whichever
// worker finished first.
func TestOrderedKeepsTheSendOrder(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	got := Ordered(func(send func(int)) {
		for i := range 50 {
			send(i)
		}
	}, func(i int) int {
		time.Sleep(time.Duration((50-i)%7) * time.Millisecond) // later items finish first
		return i * i
	})
	want := make([]int, 50)
	for i := range want {
		want[i] = i * i
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

// The second stage runs beside the first: with two workers' room, items
// are worked while produce is still sending.
func TestOrderedWorksWhileProducing(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	var worked atomic.Int32
	var seen []int32
	Ordered(func(send func(int)) {
		for i := range 5 {
			send(i)
			time.Sleep(20 * time.Millisecond)
			seen = append(seen, worked.Load())
		}
	}, func(int) struct{} {
		worked.Add(1)
		return struct{}{}
	})
	if seen[len(seen)-1] == 0 {
		t.Fatalf("no item was worked before produce returned: %v", seen)
	}
}

// At most one item per worker, one being sent and one being made are
// alive: send waits for a worker.
func TestOrderedBoundsTheItemsInFlight(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(3)) // two workers
	var live, peak atomic.Int32
	Ordered(func(send func(int)) {
		for i := range 40 {
			if n := live.Add(1); n > peak.Load() {
				peak.Store(n)
			}
			send(i)
		}
	}, func(int) struct{} {
		time.Sleep(time.Millisecond)
		live.Add(-1)
		return struct{}{}
	})
	if p := peak.Load(); p > int32(Workers())+2 {
		t.Fatalf("%d items alive at once, want at most %d", p, Workers()+2)
	}
}

// A panic in a worker reaches the caller's goroutine, where a backend's
// recover reports it, instead of crashing the process.
func TestOrderedRaisesAWorkersPanicInTheCaller(t *testing.T) {
	defer func() {
		r := recover()
		if r == nil || !strings.Contains(r.(string), "item 3") {
			t.Fatalf("recovered %v, want the worker's panic", r)
		}
	}()
	Ordered(func(send func(int)) {
		for i := range 10 {
			send(i)
		}
	}, func(i int) int {
		if i == 3 {
			panic("item 3")
		}
		return i
	})
	t.Fatal("Ordered returned after a worker panicked")
}

// Each works the items in as many goroutines as Go has processors, and
// returns the results in the order of its input.
func TestEachRunsTheItemsAtOnceInOrder(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	var live, peak atomic.Int32
	in := []int{5, 4, 3, 2, 1, 0}
	got := Each(in, func(i int) int {
		live.Add(1)
		// the first items wait (a while) for a second one to be worked beside them
		for deadline := time.Now().Add(2 * time.Second); i >= 3 && live.Load() < 2 && time.Now().Before(deadline); {
			time.Sleep(time.Millisecond)
		}
		if n := live.Load(); n > peak.Load() {
			peak.Store(n)
		}
		time.Sleep(time.Duration(i) * time.Millisecond) // earlier items finish last
		live.Add(-1)
		return i * 10
	})
	if !slices.Equal(got, []int{50, 40, 30, 20, 10, 0}) {
		t.Fatalf("got %v, want the input's order", got)
	}
	if peak.Load() != 2 {
		t.Fatalf("%d items worked at once, want 2 (GOMAXPROCS)", peak.Load())
	}
}

// A panic in Each's work reaches the caller.
func TestEachRaisesAPanicInTheCaller(t *testing.T) {
	defer func() {
		if r := recover(); r != "item 2" {
			t.Fatalf("recovered %v, want the work's panic", r)
		}
	}()
	Each([]int{1, 2, 3}, func(i int) int {
		if i == 2 {
			panic("item 2")
		}
		return i
	})
	t.Fatal("Each returned after its work panicked")
}
