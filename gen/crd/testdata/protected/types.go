// Package protected is in a protected group (*.k8s.io; x-k8s.io is not) without the approval
// annotation: the API server refuses its CRD.
//
// +groupName=widgets.k8s.io
package protected

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Gadget is a kind.
type Gadget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}
