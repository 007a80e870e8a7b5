package v1alpha1

import (
	"fmt"
	"math"

	v1 "github.com/modelgen/modelgen/examples/payments/api/v1"
)

// convertPaymentOrderSpecAmountToV1 turns v1alpha1's amount (a decimal
// number of major units) and currency into v1's Money in minor units. An
// amount that is not a whole number of the currency's minor units (12.345
// EUR), or that would not come back as written, is refused rather than
// rounded, so that the round trip stays lossless: the API server then
// refuses the request with this error.
func convertPaymentOrderSpecAmountToV1(in *PaymentOrderSpec, out *v1.PaymentOrderSpec) error {
	scale := math.Pow10(v1.MinorDigits(in.Currency))
	units := math.Round(in.Amount * scale)
	if units > math.MaxInt32 || units < math.MinInt32 || units/scale != in.Amount {
		return fmt.Errorf("spec.amount %v is not a whole number of minor units of %q (%d decimal digits): v1 holds the amount in minor units", in.Amount, in.Currency, v1.MinorDigits(in.Currency))
	}
	out.Amount = v1.Money{Units: int32(units), Currency: in.Currency}
	return nil
}

// convertPaymentOrderSpecAmountFromV1 writes v1's Money as v1alpha1's
// amount in major units and currency.
func convertPaymentOrderSpecAmountFromV1(in *v1.PaymentOrderSpec, out *PaymentOrderSpec) error {
	out.Amount = float64(in.Amount.Units) / math.Pow10(v1.MinorDigits(in.Amount.Currency))
	out.Currency = in.Amount.Currency
	return nil
}
