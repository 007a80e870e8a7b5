// Package objectonly has a type whose only reference to net/http is inside
// an interface's method (as controller-runtime's client interface names
// client-go's types): a load for deepcopy alone (model.Config.ObjectOnly)
// leaves net/http unchecked, as controller-gen object does, and checks
// net/url, which a struct field names.
package objectonly

import (
	"net/http"
	"net/url"
)

// Getter is no model; only its method names net/http.
type Getter interface {
	Get(url string) (*http.Response, error)
}

// Spec is a plain model.
//
// +modelgen:model
type Spec struct {
	Name   string  `json:"name"`
	Link   url.URL `json:"link"`
	Getter Getter  `json:"-"`
}

// Host is the link's host: a body the load keeps (the user's code).
func (s Spec) Host() string { return s.Link.Host }
