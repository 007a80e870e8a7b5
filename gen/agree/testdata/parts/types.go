// Package parts uses sku, a keyword the application registers on its own
// validator (declared by the test, as modelgen.yaml's validatorKeywords).
package parts

// Part is a plain model.
//
// +modelgen:model
type Part struct {
	SKU string `json:"sku" validate:"required,sku"`
}
