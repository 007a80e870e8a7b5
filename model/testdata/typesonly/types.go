// Package typesonly has a type whose only reference to net/http is a field
// of a struct without json tags (as a reconciler embeds a client): a load
// for the schemas alone (model.Config.TypesOnly) leaves net/http unchecked,
// and checks net/url, which a JSON type's untagged field names.
package typesonly

import (
	"net/http"
	"net/url"
)

// Reconciler is no model; it only names net/http.
type Reconciler struct {
	*http.Client
}

// Spec is a plain model.
//
// +modelgen:model
type Spec struct {
	Name string `json:"name"`
	// untagged: encoding/json still encodes it (as "Link"), so its
	// package is checked
	Link url.URL
}
