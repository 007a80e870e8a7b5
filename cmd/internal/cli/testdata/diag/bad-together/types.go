// Package types has a validate, a state and an access mistake, and a
// broken modelgen.yaml: one run reports them all.
package types

// Phase is the order's lifecycle.
type Phase string

const (
	Open   Phase = "Open"
	Closed Phase = "Closed"
)

// Order has one mistake in each tag.
// +modelgen:model
type Order struct {
	Name   string `json:"name" validate:"required,mni=3"`
	Phase  Phase  `json:"phase" state:"initial=Open;Open->Shut:Close"`
	Tenant string `json:"tenant" access:"tenant,read=Admin"`
}
