package statemachine

import "testing"

func TestLowerFirst(t *testing.T) {
	for in, want := range map[string]string{"PaymentPhase": "paymentPhase", "SLAPhase": "slaPhase", "HTTP": "hTTP", "X": "x"} {
		if got := lowerFirst(in); got != want {
			t.Errorf("lowerFirst(%q) = %q, want %q", in, got, want)
		}
	}
}
