// Package parts has one kind whose validate tags use sku, a keyword the
// application registers on its own validator (declared by the test, as
// modelgen.yaml's validatorKeywords would).
//
// +groupName=parts.example.com
// +versionName=v1
package parts

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// Part is a catalogue entry.
//
// +kubebuilder:object:root=true
type Part struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              PartSpec `json:"spec"`
}

// PartSpec names the part.
type PartSpec struct {
	SKU string `json:"sku" validate:"required,sku"`
}

// DeepCopyObject is written by hand: the test runs the webhook backend alone.
func (p *Part) DeepCopyObject() runtime.Object {
	c := *p
	c.ObjectMeta = *p.ObjectMeta.DeepCopy()
	return &c
}
