// Package v1 is the one version of the case's group that the run loads: a
// go:generate line per version package runs on one version at a time.
//
// +groupName=case.example.com
// +modelgen:conversion=webhook
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Thing is served in v1 alone.
//
// +kubebuilder:object:root=true
type Thing struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec ThingSpec `json:"spec"`
}

// ThingSpec is the desired thing.
type ThingSpec struct{}
