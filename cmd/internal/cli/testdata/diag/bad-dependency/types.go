// Package orders uses a type of a package with a syntax error in another
// file: the error at the field names the file and line that break it.
package orders

import "example.com/bad-dependency/testdata/money"

// Order is a plain model.
// +modelgen:model
type Order struct {
	Price money.Money `json:"price"`
}
