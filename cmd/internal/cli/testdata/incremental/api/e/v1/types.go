// Package v1 is a fixture of the incremental run's test.
//
// +groupName=e.example.com
// +kubebuilder:object:generate=true
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// EpsilonSpec is what a Epsilon should be.
type EpsilonSpec struct {
	Name string `json:"name" validate:"required,max=40"`
	Code string `json:"code,omitempty" validate:"omitempty,iso4217"`
}

// Epsilon is a kind.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status

type Epsilon struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec EpsilonSpec `json:"spec"`
}

// EpsilonList is a list.
//
// +kubebuilder:object:root=true
type EpsilonList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Epsilon `json:"items"`
}
