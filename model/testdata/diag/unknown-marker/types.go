// Package unknownmarker has markers in modelgen's namespace that modelgen
// does not know: each is an error at its comment, with the closest name.
//
// +modelgen:conversoin=webhook
package unknownmarker

// Signup is a plain model, with a typo in a second marker.
//
// +modelgen:model
// +modelgen:acess:default="read=*,write=admin"
type Signup struct {
	// +modelgen:frobnicate
	Email string `json:"email" validate:"required,email"`
}

// Draft has a typo in the marker that would select it: without the error
// it would silently be no model at all.
//
//	+modelgen:modle
type Draft struct {
	Title string `json:"title"`
}
