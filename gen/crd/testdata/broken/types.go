// Package broken holds CRDs the API server would refuse.
//
// +groupName=broken.example.com
package broken

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Gadget has rules the API server would refuse.
//
// +kubebuilder:object:root=true
type Gadget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec GadgetSpec `json:"spec"`
}

// GadgetSpec carries an unbounded list compared pairwise (over the CEL
// cost budget) and a rule that does not compile.
type GadgetSpec struct {
	// +kubebuilder:validation:XValidation:rule="self.all(a, self.all(b, self.all(c, a + b + c != 'x')))"
	Items []string `json:"items"`
	// +kubebuilder:validation:XValidation:rule="self.nosuchfunction()"
	Name string `json:"name"`
	// +kubebuilder:validation:Format=phone
	Phone string `json:"phone"`
}
