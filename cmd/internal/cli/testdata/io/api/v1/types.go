// Package v1 is a fixture for the CLI's file-system tests: one kind, so
// that a run writes a CRD, an OpenAPI document and deepcopy code.
// +groupName=io.example.com
// +kubebuilder:object:generate=true
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Widget is a resource.
// +kubebuilder:object:root=true
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              WidgetSpec `json:"spec"`
}

// WidgetSpec is its spec.
type WidgetSpec struct {
	Size int `json:"size" validate:"gte=1,lte=10"`
}
