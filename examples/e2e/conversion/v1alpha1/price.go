package v1alpha1

import (
	"fmt"
	"strconv"
	"strings"

	v1 "github.com/modelgen/modelgen/examples/e2e/conversion/v1"
)

// convertWidgetSpecPriceToV1 splits "<units> <currency>" into v1's Money.
// A price written otherwise is refused (the API server then refuses the
// request), and so is one that would not come back as written ("012 EUR"),
// so that the round trip stays lossless.
func convertWidgetSpecPriceToV1(in *WidgetSpec, out *v1.WidgetSpec) error {
	if in.Price == "" {
		out.Price = nil
		return nil
	}
	units, currency, ok := strings.Cut(in.Price, " ")
	n, err := strconv.ParseInt(units, 10, 64)
	if !ok || err != nil || strconv.FormatInt(n, 10) != units {
		return fmt.Errorf("spec.price %q is not \"<units> <currency>\", for example \"1250 EUR\"", in.Price)
	}
	out.Price = &v1.Money{Units: n, Currency: currency}
	return nil
}

// convertWidgetSpecPriceFromV1 writes v1's Money as "<units> <currency>".
func convertWidgetSpecPriceFromV1(in *v1.WidgetSpec, out *WidgetSpec) error {
	if in.Price == nil {
		out.Price = ""
		return nil
	}
	out.Price = fmt.Sprintf("%d %s", in.Price.Units, in.Price.Currency)
	return nil
}
