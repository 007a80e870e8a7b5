// Package v1 has properties whose names Kubernetes CEL must escape: reserved
// words, and names with '-', '.', '/' and '__', read by cross-field rules
// and by a state machine; and a tag name with an apostrophe, which
// encoding/json ignores.
// +groupName=cel.example.com
// +kubebuilder:object:generate=true
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Odd is a resource with oddly named properties.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Odd struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              OddSpec   `json:"spec"`
	Status            OddStatus `json:"status,omitempty"`
}

// OddSpec reads reserved words and escaped names in cross-field rules.
type OddSpec struct {
	In        int    `json:"in" validate:"gtfield=Namespace"`
	Namespace int    `json:"namespace"`
	Dash      string `json:"x-y,omitempty" validate:"required_with=Dot"`
	Dot       string `json:"a.b,omitempty"`
	Slash     string `json:"c/d,omitempty" validate:"excluded_with=Under"`
	Under     string `json:"e__f,omitempty"`
	True      *int   `json:"true,omitempty" validate:"omitempty,ltefield=In"`
	// encoding/json ignores the name it's and uses the Go name, Quote
	Quote *int `json:"it's,omitempty" validate:"omitempty,gtefield=Namespace"`
}

// OddPhase is the lifecycle of an Odd.
type OddPhase string

// The phases of an Odd.
const (
	New  OddPhase = "New"
	Done OddPhase = "Done"
)

// OddStatus has a state machine on a property with a dash.
type OddStatus struct {
	Phase OddPhase `json:"life-cycle,omitempty" state:"initial=New;New->Done:Finish"`
}
