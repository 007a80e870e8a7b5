// Package v1alpha1 holds the PaymentOrder API: the Go structs are the single
// source of truth for its CRD, its OpenAPI contract, its lifecycle and its
// field-level access rules. It is the older, served version: v1 is stored,
// and the API server converts between them through the operator's
// conversion webhook (generated; the amount by hand, amount.go).
//
// +kubebuilder:object:generate=true
// +groupName=payments.example.com
// +modelgen:conversion=webhook
package v1alpha1

// go generate runs ../v1's line, which generates this package with v1 (the
// conversion between them needs both in one run).
