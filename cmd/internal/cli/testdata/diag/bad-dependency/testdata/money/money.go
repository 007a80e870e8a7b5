// Package money is a dependency of the case: Money is sound, but another
// file of the package does not parse, so no type of it type-checks.
package money

// Money is an amount.
type Money struct {
	Units int64 `json:"units"`
}
