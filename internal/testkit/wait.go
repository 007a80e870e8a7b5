package testkit

import (
	"net"
	"testing"
	"time"
)

// EventuallyTimeout is how long Eventually waits: what a test waits for
// (an API server's informers, a controller, a webhook's endpoints) takes
// effect in seconds on a busy machine.
const EventuallyTimeout = 45 * time.Second

// Eventually polls cond every 100ms until it holds and fails the test,
// naming what and the last state cond reported, when it has not held
// within EventuallyTimeout.
func Eventually(t testing.TB, what string, cond func() (ok bool, state string)) {
	t.Helper()
	last := ""
	for deadline := time.Now().Add(EventuallyTimeout); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		ok, state := cond()
		if ok {
			return
		}
		last = state
	}
	t.Fatalf("timed out waiting for %s (last seen: %s)", what, last)
}

// EventuallyNil is Eventually for a condition that holds when f returns
// nil; the last error is the state.
func EventuallyNil(t testing.TB, what string, f func() error) {
	t.Helper()
	Eventually(t, what, func() (bool, string) {
		if err := f(); err != nil {
			return false, err.Error()
		}
		return true, ""
	})
}

// FreeAddr is a loopback address nothing listened on a moment ago.
func FreeAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return addr
}
