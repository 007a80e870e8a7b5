// Package types imports a package its module does not provide (the test
// module requires only modelgen, and go.sum has no entry): an error at the
// import, where the kinds would otherwise silently not be found.
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
