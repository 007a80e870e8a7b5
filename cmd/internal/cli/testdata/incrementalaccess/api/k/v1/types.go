// Package v1 is a fixture of the incremental run's test: a kind with
// access rules and a tenant key, so the run writes its admission policy
// and the module's AccessPolicy files.
//
// +groupName=k.example.com
// +kubebuilder:object:generate=true
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// KioskSpec is what a Kiosk should be.
//
// +modelgen:access:default="read=*,write=owner|manager"
type KioskSpec struct {
	Tenant string `json:"tenant" validate:"required,max=63" access:"tenant"`
	Stalls int32  `json:"stalls" validate:"min=1,max=900"`
	Rate   string `json:"rate,omitempty" validate:"omitempty,max=20" access:"read=*,write=manager"`
}

// Kiosk is a kind with access rules.
//
// +kubebuilder:object:root=true
// +modelgen:access:default="read=*,write=owner"
type Kiosk struct {
	metav1.TypeMeta   `json:",inline" access:"read=*"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec KioskSpec `json:"spec" access:"read=*,write=owner|manager"`
}

// KioskList is a list.
//
// +kubebuilder:object:root=true
type KioskList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Kiosk `json:"items"`
}
