// Package v1 is a fixture of the incremental run's test.
//
// +groupName=c.example.com
// +kubebuilder:object:generate=true
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// GammaSpec is what a Gamma should be.
type GammaSpec struct {
	Name string `json:"name" validate:"required,max=40"`
	Code string `json:"code,omitempty" validate:"omitempty,iso4217"`
	Note Note   `json:"note"`
}

// Gamma is a kind.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status

type Gamma struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec GammaSpec `json:"spec"`
}

// GammaList is a list.
//
// +kubebuilder:object:root=true
type GammaList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Gamma `json:"items"`
}

// Note is a note.
type Note struct {
	Text string `json:"text" validate:"max=200"`
}
