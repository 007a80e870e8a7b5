package statemachine_test

import (
	"testing"

	"github.com/modelgen/modelgen/statemachine"
)

func BenchmarkFireWithHooks(b *testing.B) {
	b.ReportAllocs()
	var exits, enters int
	h := countingHooks{&exits, &enters}
	for b.Loop() {
		phase := Submitted
		if err := statemachine.Fire(payment, &phase, "Authorize", h); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLookup(b *testing.B) {
	for b.Loop() {
		if _, err := payment.Lookup(Submitted, "Authorize"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkMachineFire(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		phase := Submitted
		if err := payment.Fire(&phase, "Authorize"); err != nil {
			b.Fatal(err)
		}
	}
}
