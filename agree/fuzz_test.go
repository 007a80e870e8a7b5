package agree_test

import (
	"testing"

	"github.com/modelgen/modelgen/agree"
)

// FuzzAgreement mutates documents of the case resources (every mapped
// keyword on every kind) and fails on any divergence no category or
// documented exception explains. Its corpus is in
// testdata/fuzz/FuzzAgreement; run it with
//
//	go test ./agree -run '^$' -fuzz FuzzAgreement -fuzztime 60s
func FuzzAgreement(f *testing.F) {
	h, err := harness()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(uint8(0), uint16(0), uint8(2), "abc", int64(3), 0.5, uint16(1), uint8(0))
	f.Add(uint8(6), uint16(40), uint8(4), "", int64(0), 0.5000000000000001, uint16(3), uint8(3))
	f.Add(uint8(12), uint16(7), uint8(6), "10.0.0.1", int64(-1), 1e308, uint16(9), uint8(1))
	f.Fuzz(func(t *testing.T, typ uint8, field uint16, op uint8, s string, n int64, x float64, field2 uint16, op2 uint8) {
		c, ok := h.Mutate(
			agree.Mutation{Type: int(typ), Field: int(field), Op: op, S: s, N: n, X: x},
			agree.Mutation{Type: int(typ), Field: int(field2), Op: op2, S: s, N: n, X: x},
		)
		if !ok {
			return
		}
		if j := h.Judge(c); j.Unlisted {
			t.Fatalf("unlisted divergence: %s", j.String())
		}
	})
}
