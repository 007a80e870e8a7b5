// Package appkeywords is a fixture for keywords the application registers
// on its own validator (modelgen.yaml's validatorKeywords).
package appkeywords

// Part is a plain model.
//
// +modelgen:model
type Part struct {
	// SKU uses a declared keyword, and an alternative of two.
	SKU   string `json:"sku" validate:"required,sku"`
	Other string `json:"other,omitempty" validate:"omitempty,sku|barcode"`
	// Code uses a keyword nobody declared.
	Code string `json:"code,omitempty" validate:"omitempty,partcode"`
}
