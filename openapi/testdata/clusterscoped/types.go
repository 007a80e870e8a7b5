package clusterscoped

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Region is a cluster-wide setting.
//
// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Cluster,path=regions,singular=region
type Region struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec RegionSpec `json:"spec"`
}

// RegionSpec describes a region.
type RegionSpec struct {
	Code  string   `json:"code" validate:"required,len=2,lowercase"`
	Zones []string `json:"zones" validate:"required,min=1,dive,hostname_rfc1123"`
	// +kubebuilder:validation:Maximum=10
	Weight int `json:"weight,omitempty" validate:"omitempty,min=1,max=10"`
}
