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

//go:generate go run github.com/modelgen/modelgen/cmd/modelgen generate .
