// Package orders is a fixture for the CLI's end-to-end test.
package orders

// Order is a plain model.
//
// +modelgen:model
type Order struct {
	ID    string `json:"id" validate:"required,uuid"`
	Count int    `json:"count" validate:"gte=1,lte=10"`
	Note  string `json:"note,omitempty" validate:"omitempty,max=140"`
}
