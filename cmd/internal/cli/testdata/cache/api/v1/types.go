// Package v1 is a fixture for the CLI's cache tests: a kind whose spec
// uses a type of another package of the module, a state machine, and a
// check no schema carries (a warning every run prints).
//
// +groupName=cache.example.com
// +kubebuilder:object:generate=true
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"example.com/cache/lib"
)

// WidgetPhase is the lifecycle of a widget.
type WidgetPhase string

// The phases of a widget.
const (
	Pending WidgetPhase = "Pending"
	Ready   WidgetPhase = "Ready"
)

// WidgetSpec is what a widget should be.
type WidgetSpec struct {
	Name string   `json:"name" validate:"required,max=40"`
	Code string   `json:"code,omitempty" validate:"omitempty,iso4217"`
	Size lib.Size `json:"size"`
}

// WidgetStatus is what a widget is.
type WidgetStatus struct {
	Phase WidgetPhase `json:"phase,omitempty" state:"initial=Pending;Pending->Ready:Finish"`
}

// Widget is a kind.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   WidgetSpec   `json:"spec"`
	Status WidgetStatus `json:"status,omitempty"`
}

// WidgetList is a list of widgets.
//
// +kubebuilder:object:root=true
type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Widget `json:"items"`
}
