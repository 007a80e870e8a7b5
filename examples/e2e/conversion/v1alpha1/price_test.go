package v1alpha1

import (
	"fmt"

	"sigs.k8s.io/randfill"
)

// RandFill fills a WidgetSpec for the generated round-trip test with a price
// the hand-written conversion accepts ("<units> <currency>" or none), so
// that the v1alpha1 → v1 → v1alpha1 trip is not refused.
func (s *WidgetSpec) RandFill(c randfill.Continue) {
	c.FillNoCustom(s)
	s.Price = ""
	if c.Bool() {
		s.Price = fmt.Sprintf("%d %s", c.Int63(), c.String(4))
	}
}
