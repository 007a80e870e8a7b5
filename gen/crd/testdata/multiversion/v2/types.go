// Package v2 is version v2 of the gizmo API.
//
// +groupName=multi.example.com
package v2

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Gizmo is served in two versions.
//
// +kubebuilder:object:root=true
// +kubebuilder:storageversion
type Gizmo struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec GizmoSpec `json:"spec"`
}

// GizmoSpec is the desired gizmo.
type GizmoSpec struct {
	Size int32 `json:"size" validate:"required,max=20"`
}
