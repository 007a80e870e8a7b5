// Package parts declares, in modelgen.yaml, keywords the application
// registers itself: a keyword of validator's own and a name no tag can
// hold are errors at the setting; the declared sku is accepted.
package parts

// Part is a plain model.
//
// +modelgen:model
type Part struct {
	SKU string `json:"sku" validate:"required,sku"`
}
