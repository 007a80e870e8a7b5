// Package rootonly has no package marker: only the root gets methods.
//
// +groupName=dc.example.com
package rootonly

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Root is marked.
// +kubebuilder:object:root=true
type Root struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              Spec `json:"spec"`
}

// Spec is plain and gets nothing.
type Spec struct {
	Size int32 `json:"size"`
}
