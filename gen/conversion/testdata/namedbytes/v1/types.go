// Package v1 is a version of the case's group.
//
// +groupName=case.example.com
// +modelgen:conversion=webhook
package v1

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Thing is served in v1alpha1 and v1.
//
// +kubebuilder:object:root=true
// +kubebuilder:storageversion
type Thing struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec ThingSpec `json:"spec"`
}

// Blob is a named byte slice of each version.
type Blob []byte

// Wait is a named duration of each version.
type Wait time.Duration

// ThingSpec holds named byte slices and durations, alone and in lists,
// maps and pointers.
type ThingSpec struct {
	Blob   Blob            `json:"blob,omitempty"`
	Ptr    *Blob           `json:"ptr,omitempty"`
	Blobs  []Blob          `json:"blobs,omitempty"`
	ByName map[string]Blob `json:"byName,omitempty"`
	Wait   Wait            `json:"wait,omitempty"`
}
