// Package v1 is a fixture of the incremental run's test.
//
// +groupName=a.example.com
// +kubebuilder:object:generate=true
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// AlphaSpec is what a Alpha should be.
type AlphaSpec struct {
	Name string `json:"name" validate:"required,max=40"`
	Code string `json:"code,omitempty" validate:"omitempty,iso4217"`
	Size Size   `json:"size"`
}

// Alpha is a kind.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status

type Alpha struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec AlphaSpec `json:"spec"`
}

// AlphaList is a list.
//
// +kubebuilder:object:root=true
type AlphaList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Alpha `json:"items"`
}

// Size is a size, used by another package too.
type Size struct {
	// Count is how many.
	Count int32 `json:"count" validate:"gte=1,lte=100"`
}
