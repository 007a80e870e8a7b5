// Package v1alpha1 is the older, served version of the widget API; v1 is
// stored. modelgen generates the conversion between them (docs/conversion.md):
// every field is converted by generated code, renamed (color → colour),
// dropped (note) and added (tier, serial) fields included, but price, which
// v1 splits into units and currency: its conversion is hand-written (price.go).
//
// +kubebuilder:object:generate=true
// +groupName=conversion.e2e.modelgen.dev
// +modelgen:conversion=webhook
package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Widget is served in v1alpha1 and v1.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   WidgetSpec   `json:"spec"`
	Status WidgetStatus `json:"status,omitempty"`
}

// WidgetSpec is the desired widget.
type WidgetSpec struct {
	Size  int32  `json:"size"`
	Color string `json:"color,omitempty"`
	// Note is gone in v1: it survives a round trip through v1 in an
	// annotation.
	Note   string          `json:"note,omitempty"`
	Parts  []Part          `json:"parts,omitempty"`
	ByName map[string]Part `json:"byName,omitempty"`
	Owner  *Part           `json:"owner,omitempty"`
	Tags   []string        `json:"tags,omitempty"`
	Due    *metav1.Time    `json:"due,omitempty"`
	Mode   Mode            `json:"mode,omitempty"`
	// Price is "<units> <currency>" ("1250 EUR"); v1 splits it, and the
	// conversion of this field is hand-written (price.go).
	Price string `json:"price,omitempty"`
}

// Part is one part of a widget.
type Part struct {
	Name   string `json:"name"`
	Weight int64  `json:"weight,omitempty"`
}

// Mode is how the widget runs (the same values in both versions).
type Mode string

const (
	ModeFast Mode = "Fast"
	ModeSlow Mode = "Slow"
)

// WidgetStatus is the observed widget.
type WidgetStatus struct {
	Phase      string             `json:"phase,omitempty"`
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// WidgetList is a list of widgets.
//
// +kubebuilder:object:root=true
type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Widget `json:"items"`
}
