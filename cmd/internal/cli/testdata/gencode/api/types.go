// Package types has a resource root, but does not ask for deepcopy on the
// package (+kubebuilder:object:generate=true): the root's generated
// DeepCopyInto calls one its spec does not get, and the run refuses to
// write code that does not compile.
// +groupName=orders.example.com
package types

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Order is a resource.
// +kubebuilder:object:root=true
type Order struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              OrderSpec `json:"spec"`
}

// OrderSpec is its spec.
type OrderSpec struct {
	Items []string `json:"items,omitempty"`
}
