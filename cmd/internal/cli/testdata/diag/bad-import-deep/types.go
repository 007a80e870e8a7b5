// Package types imports a package of its module (testdata/client) that
// imports a module go.mod does not require: go build fails at that import,
// and so does the run, where it would otherwise write the package's
// outputs as if it built.
// +groupName=orders.example.com
package types

import _ "example.com/bad-import-deep/testdata/client"

// Order is a domain type.
// +modelgen:model
type Order struct {
	Items []string `json:"items,omitempty" validate:"max=10"`
}
