// Package v1 is a fixture of the incremental run's test.
//
// +groupName=g.example.com
// +kubebuilder:object:generate=true
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// DeltaSpec is what a Delta should be.
type DeltaSpec struct {
	Name string `json:"name" validate:"required,max=40"`
	Code string `json:"code,omitempty" validate:"omitempty,iso4217"`
}

// Delta is a kind.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:storageversion
type Delta struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec DeltaSpec `json:"spec"`
}

// DeltaList is a list.
//
// +kubebuilder:object:root=true
type DeltaList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Delta `json:"items"`
}
