// Package meta holds kinds with ObjectMeta for the policy tests: Thing is
// namespaced, Global cluster-scoped.
//
// +groupName=meta.test.modelgen.io
package meta

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Thing has labels and annotations that admins govern and a note clerks
// may write.
//
// +kubebuilder:object:root=true
// +modelgen:access:default="read=*,write=admin"
type Thing struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec ThingSpec `json:"spec" access:"read=*,write=admin|clerk"`
}

// ThingSpec is the desired thing.
//
// +modelgen:access:default="read=*,write=admin"
type ThingSpec struct {
	Tenant string `json:"tenant" access:"tenant"`
	Note   string `json:"note,omitempty" access:"read=*,write=admin|clerk"`
}

// Global is cluster-scoped: it has no namespace to take a tenant from.
//
// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Cluster
// +modelgen:access:default="read=*,write=admin"
type Global struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Tenant string `json:"tenant" access:"tenant"`
}
