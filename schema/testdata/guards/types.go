// Package guards exercises how the omit keywords guard the checks written
// after them, in the CRD target (CEL rules included).
//
// +groupName=guards.example.com
package guards

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Guard is a custom resource.
//
// +kubebuilder:object:root=true
type Guard struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec GuardSpec `json:"spec"`
}

// GuardSpec holds one field per guard shape.
type GuardSpec struct {
	Solo   bool              `json:"solo,omitempty"`
	Peers  []string          `json:"peers,omitempty" validate:"omitzero,max=5,excluded_with=Solo,dive,max=20"`
	Labels map[string]string `json:"labels,omitempty" validate:"omitzero,max=4,excluded_with=Solo,dive,max=20"`
	Ratio  float64           `json:"ratio,omitempty" validate:"omitempty,gte=0.5,lte=2.5"`
	Addr   *string           `json:"addr,omitempty" validate:"omitzero,max=45,ip"`
	Name   string            `json:"name" validate:"omitnil,min=3,max=10"`
	Count  int32             `json:"count,omitempty" validate:"omitzero,gte=2"`
}
