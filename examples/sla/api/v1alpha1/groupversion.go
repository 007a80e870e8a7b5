// Package v1alpha1 holds the SLA API: an SLAContract between a provider and
// a customer, the thresholds that move it through its lifecycle, and the
// compensation owed on a breach. Everything the API server enforces (bounds,
// the order of the thresholds, the legal phase changes) is generated from
// the tags on the structs below.
//
// +kubebuilder:object:generate=true
// +groupName=sla.example.com
package v1alpha1

//go:generate go run github.com/modelgen/modelgen/cmd/modelgen generate .
