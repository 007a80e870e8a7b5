// Package v1 is a fixture of the incremental run's test: a kind with
// access rules and a tenant key, so the run writes its admission policy
// and the module's AccessPolicy files.
//
// +groupName=h.example.com
// +kubebuilder:object:generate=true
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// HotelSpec is what a Hotel should be.
//
// +modelgen:access:default="read=*,write=owner|manager"
type HotelSpec struct {
	Tenant string `json:"tenant" validate:"required,max=63" access:"tenant"`
	Rooms  int32  `json:"rooms" validate:"min=1,max=900"`
	Rate   string `json:"rate,omitempty" validate:"omitempty,max=20" access:"read=*,write=manager"`
}

// Hotel is a kind with access rules.
//
// +kubebuilder:object:root=true
// +modelgen:access:default="read=*,write=owner"
type Hotel struct {
	metav1.TypeMeta   `json:",inline" access:"read=*"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec HotelSpec `json:"spec" access:"read=*,write=owner|manager"`
}

// HotelList is a list.
//
// +kubebuilder:object:root=true
type HotelList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Hotel `json:"items"`
}
