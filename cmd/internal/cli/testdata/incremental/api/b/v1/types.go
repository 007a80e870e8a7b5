// Package v1 is a fixture of the incremental run's test.
//
// +groupName=b.example.com
// +kubebuilder:object:generate=true
package v1

import (
	alphav1 "example.com/incremental/api/a/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// BetaSpec is what a Beta should be.
type BetaSpec struct {
	Name string       `json:"name" validate:"required,max=40"`
	Code string       `json:"code,omitempty" validate:"omitempty,iso4217"`
	Size alphav1.Size `json:"size"`
}

// Beta is a kind.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status

type Beta struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec BetaSpec `json:"spec"`
}

// BetaList is a list.
//
// +kubebuilder:object:root=true
type BetaList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Beta `json:"items"`
}
