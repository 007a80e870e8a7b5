// Package v1alpha1 is a version of the case's group.
//
// +groupName=case.example.com
// +modelgen:conversion=webhook
package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Thing is served in v1alpha1 and v1.
//
// +kubebuilder:object:root=true
type Thing struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec ThingSpec `json:"spec"`
}

// ThingSpec is the desired thing.
type ThingSpec struct {
	Replicas int32 `json:"replicas"`
}
