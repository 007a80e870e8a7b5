// Package nogroup has objects but no +groupName: controller-gen writes no
// CRD for it, and modelgen skips its objects with one note.
package nogroup

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Hook is a root without ObjectMeta.
// +kubebuilder:object:root=true
type Hook struct {
	metav1.TypeMeta `json:",inline"`
}

// Thing is a kind shape without a group.
type Thing struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}

// Payload is a plain model, which needs no group.
// +modelgen:model
type Payload struct {
	ID string `json:"id"`
}
