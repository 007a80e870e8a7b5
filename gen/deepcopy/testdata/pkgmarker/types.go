// Package pkgmarker asks for deepcopy of every type.
//
// +groupName=dc.example.com
// +kubebuilder:object:generate=true
package pkgmarker

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Thing is a kind.
type Thing struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              Spec `json:"spec"`
}

// Spec gets deepcopy methods with the package.
type Spec struct {
	Tags []string `json:"tags,omitempty"`
}

// Handwritten opts out.
// +kubebuilder:object:generate=false
type Handwritten struct {
	Data map[string]string `json:"data,omitempty"`
}
