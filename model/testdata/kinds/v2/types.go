// Package v2 is a second version of group kinds.example.com, declaring its
// kinds as v1's types, as gateway-api's older versions do.
//
// +groupName=kinds.example.com
package v2

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	v1 "github.com/modelgen/modelgen/model/testdata/kinds/v1"
)

// Marked is v1's kind under this version: a kind, since the group has a
// kind of this name.
// +kubebuilder:object:root=true
type Marked v1.Marked

// MarkedList is its list.
// +kubebuilder:object:root=true
type MarkedList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Marked `json:"items"`
}

// Spec shares a name with no kind.
// +kubebuilder:object:root=true
type Spec v1.Spec
