// Package lib holds a type the API package uses: a dependency in the
// user's own module.
package lib

// Size is how big a widget is.
type Size struct {
	Value int32 `json:"value" validate:"min=1,max=100"`
}
