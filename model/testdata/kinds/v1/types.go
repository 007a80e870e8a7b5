// Package v1 holds kinds found the way controller-gen finds them.
//
// +groupName=kinds.example.com
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Unmarked is a kind without the root marker: it embeds TypeMeta and
// ObjectMeta, which is all controller-gen asks of a kind.
type Unmarked struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              Spec `json:"spec"`
}

// UnmarkedList is its list: a root, never a kind.
type UnmarkedList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Unmarked `json:"items"`
}

// Marked is a kind with the root marker.
// +kubebuilder:object:root=true
type Marked struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}

// Internal is a kind whose version is not served.
// +kubebuilder:skipversion
type Internal struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}

// InternalList is the list of a kind whose version is not served.
// +kubebuilder:object:root=true
type InternalList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Internal `json:"items"`
}

// Request has the root marker but no ObjectMeta: an object, not a kind,
// and not selected (controller-gen writes no CRD for it).
// +kubebuilder:object:root=true
type Request struct {
	metav1.TypeMeta `json:",inline"`
	Name            string `json:"name"`
}

// Spec is plain.
type Spec struct {
	Size int32 `json:"size"`
}

// Named embeds a type called ObjectMeta that is not metav1's.
type Named struct {
	metav1.TypeMeta `json:",inline"`
	ObjectMeta      `json:"metadata"`
}

// ObjectMeta is not metav1.ObjectMeta.
type ObjectMeta struct {
	Name string `json:"name"`
}
