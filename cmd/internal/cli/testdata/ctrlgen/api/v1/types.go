// Package v1 is a kubebuilder API package.
// +kubebuilder:object:generate=true
// +groupName=jobs.example.com
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// WorkerSet runs workers from a template.
// +kubebuilder:object:root=true
type WorkerSet struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              WorkerSetSpec `json:"spec"`
}

// WorkerSetSpec is the desired state.
type WorkerSetSpec struct {
	// Template is what each worker is made from: a very long description
	// that crd:maxDescLen cuts.
	Template WorkerTemplate `json:"template"`
}

// WorkerTemplate carries the workers' metadata.
type WorkerTemplate struct {
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Image             string `json:"image"`
}

// WorkerSetList lists WorkerSets.
// +kubebuilder:object:root=true
type WorkerSetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []WorkerSet `json:"items"`
}
