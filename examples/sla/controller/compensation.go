package controller

import (
	"math"

	slav1 "github.com/modelgen/modelgen/examples/sla/api/v1alpha1"
)

// Compensation is the credit owed for a breach measured at availability
// percent: BaseCreditPercent plus CreditPercentPerPoint for each percentage
// point below the objective, at most MaxCreditPercent, of the monthly fee.
// The credit percent is rounded to 0.01 and the amount to the cent.
func Compensation(spec *slav1.SLAContractSpec, availabilityPercent float64) (creditPercent float64, cents int64) {
	p := spec.Compensation
	shortfall := max(0, spec.Objective-availabilityPercent)
	credit := min(p.MaxCreditPercent, p.BaseCreditPercent+p.CreditPercentPerPoint*shortfall)
	credit = math.Round(credit*100) / 100
	return credit, int64(math.Round(float64(p.MonthlyFeeCents) * credit / 100))
}
