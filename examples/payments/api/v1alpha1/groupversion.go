// Package v1alpha1 holds the PaymentOrder API: the Go structs are the single
// source of truth for its CRD, its OpenAPI contract, its lifecycle and its
// field-level access rules.
//
// +kubebuilder:object:generate=true
// +groupName=payments.example.com
package v1alpha1

//go:generate go run github.com/modelgen/modelgen/cmd/modelgen generate .
