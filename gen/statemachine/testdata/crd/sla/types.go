// Package sla mirrors the SLA example's state machine (see package payments).
//
// +groupName=sla.example.com
package sla

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type SLAPhase string

const (
	SLAPending  SLAPhase = "pending"
	SLAActive   SLAPhase = "active"
	SLADegraded SLAPhase = "degraded"
	SLABreached SLAPhase = "breached"
	SLAResolved SLAPhase = "resolved"
)

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type SLA struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   SLASpec   `json:"spec,omitempty"`
	Status SLAStatus `json:"status,omitempty"`
}

type SLASpec struct {
	Service string `json:"service,omitempty"`
}

type SLAStatus struct {
	// Phase is the compliance state.
	Phase SLAPhase `json:"phase,omitempty" state:"initial=pending;pending->active:Activate[Healthy];active->degraded:Degrade[DegradeHeld];degraded->active:Recover[RecoverHeld];degraded->breached:Breach[BreachHeld];breached->resolved:Resolve[Acknowledged]"`
}
