package gateway_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/modelgen/modelgen/examples/payments/gateway"
)

// TestSameKeySameAnswer: a key's effect is applied once, and every call
// with the key gets the first answer.
func TestSameKeySameAnswer(t *testing.T) {
	g := gateway.NewSimulated(gateway.Config{})
	ctx := context.Background()
	a1, err1 := g.Authorize(ctx, gateway.Request{Key: "k/authorize/1", Amount: 100})
	a2, err2 := g.Authorize(ctx, gateway.Request{Key: "k/authorize/1", Amount: 100})
	if err1 != nil || err2 != nil || a1 != a2 || a1 == "" {
		t.Fatalf("two calls with one key: %q %v, %q %v", a1, err1, a2, err2)
	}
	a3, _ := g.Authorize(ctx, gateway.Request{Key: "k/authorize/2", Amount: 100})
	if a3 == a1 {
		t.Fatal("a new key got the old authorization")
	}
	if n := len(g.Applied()); n != 2 {
		t.Fatalf("%d effects, want 2", n)
	}
	if _, err := g.Authorize(ctx, gateway.Request{Amount: 1}); !gateway.IsDeclined(err) {
		t.Fatalf("a call without a key: %v", err)
	}
}

// TestFailuresRepeat: with a failure rate, the same seed fails the same
// calls; a lost reply keeps its effect, and the retry gets its answer.
func TestFailuresRepeat(t *testing.T) {
	run := func(seed uint64) (trace string, charges int) {
		g := gateway.NewSimulated(gateway.Config{FailureRate: 0.5, Seed: seed})
		for i := range 20 {
			key := fmt.Sprintf("o%d/capture/1", i)
			for try := 0; ; try++ {
				_, err := g.Capture(context.Background(), gateway.Request{Key: key, ID: "auth"})
				trace += fmt.Sprint(err != nil)
				if err == nil {
					break
				}
				if !errors.Is(err, gateway.ErrUnavailable) || try > 50 {
					t.Fatalf("%s: %v", key, err)
				}
			}
		}
		return trace, len(g.Applied())
	}
	t1, c1 := run(1)
	t2, c2 := run(1)
	t3, _ := run(2)
	if t1 != t2 {
		t.Error("the same seed failed different calls")
	}
	if t1 == t3 {
		t.Error("another seed failed the same calls")
	}
	if c1 != 20 || c2 != 20 {
		t.Errorf("%d and %d charges for 20 keys, retried until answered", c1, c2)
	}
}

// TestDeadline: a call slower than its context returns the context's error
// and has no effect.
func TestDeadline(t *testing.T) {
	g := gateway.NewSimulated(gateway.Config{Latency: time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := g.Authorize(ctx, gateway.Request{Key: "k"}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v", err)
	}
	if len(g.Applied()) != 0 {
		t.Fatal("a call past its deadline took effect")
	}
}

// TestDeclines: authorizations above the limit and bounced settlements are
// *Declined, and stay declined under the same key.
func TestDeclines(t *testing.T) {
	g := gateway.NewSimulated(gateway.Config{DeclineAbove: 1000, SettlementDeclineRate: 1})
	ctx := context.Background()
	if _, err := g.Authorize(ctx, gateway.Request{Key: "big", Amount: 1001}); !gateway.IsDeclined(err) {
		t.Fatalf("above the limit: %v", err)
	}
	if err := g.Settle(ctx, gateway.Request{Key: "s", ID: "ch"}); !gateway.IsDeclined(err) {
		t.Fatalf("settlement: %v", err)
	}
	if err := g.Settle(ctx, gateway.Request{Key: "s", ID: "ch"}); !gateway.IsDeclined(err) {
		t.Fatalf("settlement again: %v", err)
	}
}
