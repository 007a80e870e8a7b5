// Package v1 holds the PaymentOrder API in its stored version: the Go
// structs are the single source of truth for its CRD, its OpenAPI contract,
// its lifecycle and its field-level access rules. v1alpha1 is still served;
// modelgen generates the conversion between them (docs/conversion.md), all
// of it but the amount, which v1 holds as Money in minor units and v1alpha1
// as a decimal number beside its currency (hand-written, in
// ../v1alpha1/amount.go).
//
// +kubebuilder:object:generate=true
// +groupName=payments.example.com
// +modelgen:conversion=webhook
package v1

// The conversion between the versions is generated from both at once, so
// one line, here, generates the group's two version packages.
//go:generate go run github.com/modelgen/modelgen/cmd/modelgen generate ../...
