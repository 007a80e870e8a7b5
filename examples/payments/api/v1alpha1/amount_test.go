package v1alpha1

import (
	"math"

	"sigs.k8s.io/randfill"

	v1 "github.com/modelgen/modelgen/examples/payments/api/v1"
)

// RandFill fills a PaymentOrderSpec for the generated round-trip test with
// an amount the hand-written conversion accepts (a whole number of minor
// units of its currency), so that the v1alpha1 → v1 → v1alpha1 trip is
// not refused; the other fields are random.
func (s *PaymentOrderSpec) RandFill(c randfill.Continue) {
	c.FillNoCustom(s)
	s.Currency = []string{"EUR", "JPY", "KWD", "USD", ""}[c.Intn(5)]
	s.Amount = float64(c.Int31()) / math.Pow10(v1.MinorDigits(s.Currency))
}
