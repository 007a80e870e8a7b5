// Package v1 holds the SLA API: a service-level agreement and the lifecycle
// of its compliance, generated from the structs below.
//
// +kubebuilder:object:generate=true
// +groupName=sla.example.com
package v1

//go:generate go run github.com/modelgen/modelgen/cmd/modelgen generate .
