// Package shop has one kind with checks no schema can carry (in a nested
// list, behind a pointer, in an inline struct) and a state machine, and one
// kind whose checks the CRD carries in full.
//
// +groupName=shop.example.com
// +versionName=v1
package shop

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Phase is a shop's lifecycle.
type Phase string

const (
	PhaseDraft  Phase = "Draft"
	PhaseOpen   Phase = "Open"
	PhaseClosed Phase = "Closed"
)

// Shop sells things.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type Shop struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              ShopSpec   `json:"spec"`
	Status            ShopStatus `json:"status,omitempty"`
}

// Contact is inlined into the spec.
type Contact struct {
	Website string `json:"website,omitempty" validate:"omitempty,url"`
}

// ShopSpec is what the owner asks for.
type ShopSpec struct {
	Contact  `json:",inline"`
	Currency string            `json:"currency" validate:"required,iso4217"`
	Items    []Item            `json:"items,omitempty" validate:"dive"`
	Owner    *Person           `json:"owner,omitempty"`
	Labels   map[string]string `json:"labels,omitempty" validate:"omitempty,dive,keys,lowercase,endkeys,min=1"`
}

// Item is one article.
type Item struct {
	Name    string `json:"name" validate:"required,min=2"`
	Country string `json:"country" validate:"required,iso3166_1_alpha2"`
}

// Person is the owner.
type Person struct {
	Email string `json:"email" validate:"required,email"`
}

// ShopStatus is what the controller saw.
type ShopStatus struct {
	Phase Phase `json:"phase,omitempty" state:"initial=Draft;Draft->Open:Open;Open->Closed:Close"`
}

// Plain has checks the CRD schema carries in full.
//
// +kubebuilder:object:root=true
type Plain struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Name              string `json:"name" validate:"required,min=2"`
}
