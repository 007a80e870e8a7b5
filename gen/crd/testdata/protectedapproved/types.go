// Package protectedapproved is package protected with the marker its
// error message suggests.
//
// +groupName=widgets.k8s.io
package protectedapproved

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Gadget is a kind.
// +kubebuilder:metadata:annotations="api-approved.kubernetes.io=https://github.com/kubernetes/enhancements/pull/1111"
type Gadget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
}
