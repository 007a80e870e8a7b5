// Package v1 is the stored version of the widget API (the hub of its
// conversions); v1alpha1 is still served.
//
// +kubebuilder:object:generate=true
// +groupName=conversion.e2e.modelgen.dev
// +modelgen:conversion=webhook
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Widget is served in v1alpha1 and v1, and stored in v1.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:storageversion
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   WidgetSpec   `json:"spec"`
	Status WidgetStatus `json:"status,omitempty"`
}

// WidgetSpec is the desired widget.
type WidgetSpec struct {
	Size int32 `json:"size"`
	// Colour was color in v1alpha1.
	//
	// +modelgen:conversion:from=color
	Colour string          `json:"colour,omitempty"`
	Parts  []Part          `json:"parts,omitempty"`
	ByName map[string]Part `json:"byName,omitempty"`
	Owner  *Part           `json:"owner,omitempty"`
	Tags   []string        `json:"tags,omitempty"`
	Due    *metav1.Time    `json:"due,omitempty"`
	Mode   Mode            `json:"mode,omitempty"`
	// Tier is new in v1: it survives a round trip through v1alpha1 in an
	// annotation.
	Tier string `json:"tier,omitempty"`
	// Price was "<units> <currency>" in v1alpha1.
	Price *Money `json:"price,omitempty"`
}

// Money is an amount in minor units of a currency.
type Money struct {
	Units    int64  `json:"units"`
	Currency string `json:"currency"`
}

// Part is one part of a widget.
type Part struct {
	Name   string `json:"name"`
	Weight int64  `json:"weight,omitempty"`
	// Serial is new in v1, in every element of a list and a map.
	Serial string `json:"serial,omitempty"`
}

// Mode is how the widget runs.
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
