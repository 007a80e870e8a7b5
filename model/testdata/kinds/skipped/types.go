// Package skipped opts out of CRD generation.
//
// +groupName=skipped.example.com
// +kubebuilder:skip
package skipped

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Ignored would be a kind.
type Ignored struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}
