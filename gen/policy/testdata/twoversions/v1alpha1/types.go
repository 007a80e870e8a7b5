// Package v1alpha1 is one of two versions of a kind with access tags: each
// version gets a policy of its own, in a file that names the version.
//
// +groupName=two.test.modelgen.io
package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Widget is served in two versions.
//
// +kubebuilder:object:root=true
// +modelgen:access:default="read=*,write=admin"
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec WidgetSpec `json:"spec"`
}

// WidgetSpec is the desired widget.
//
// +modelgen:access:default="read=*,write=admin"
type WidgetSpec struct {
	Tenant string `json:"tenant" access:"tenant"`
	Note   string `json:"note,omitempty" access:"read=*,write=admin|clerk"`
}
