package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// SLAPhase is the compliance state of an agreement.
type SLAPhase string

const (
	SLAPending  SLAPhase = "pending"
	SLAActive   SLAPhase = "active"
	SLADegraded SLAPhase = "degraded"
	SLABreached SLAPhase = "breached"
	SLAResolved SLAPhase = "resolved"
)

// SLA is a service-level agreement between a provider and a customer.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced
// +kubebuilder:printcolumn:name="Target",type=number,JSONPath=`.spec.availabilityTarget`
// +kubebuilder:printcolumn:name="Phase",type=string,JSONPath=`.status.phase`
// +modelgen:access:default="read=*,write=provider-admin"
type SLA struct {
	metav1.TypeMeta   `json:",inline" access:"read=*"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   SLASpec   `json:"spec" access:"write=customer-admin|provider-admin"`
	Status SLAStatus `json:"status,omitempty"`
}

// SLASpec is the agreed service level.
//
// +modelgen:access:default="read=*,write=provider-admin"
type SLASpec struct {
	// Service names the covered service.
	Service string `json:"service" validate:"required,min=1,max=63,hostname_rfc1123"`
	// Customer identifies the customer tenant.
	Customer string `json:"customer" validate:"required,min=1,max=63" access:"tenant"`
	// AvailabilityTarget is the agreed availability in percent.
	AvailabilityTarget float64 `json:"availabilityTarget" validate:"required,gt=0,lte=100"`
	// WarningThreshold is the availability below which the SLA is degraded.
	WarningThreshold float64 `json:"warningThreshold" validate:"required,gt=0,lte=100,gtefield=AvailabilityTarget"`
	// ResponseMinutes is the agreed first-response time.
	ResponseMinutes int32 `json:"responseMinutes" validate:"required,min=1,max=10080"`
	// Contacts are notified on a breach.
	Contacts []string `json:"contacts" validate:"required,min=1,max=5,dive,email" access:"read=*,write=customer-admin|provider-admin"`
	// Tier selects the support tier.
	Tier string `json:"tier" validate:"required,oneof=bronze silver gold platinum" access:"read=customer-admin|provider-admin|auditor,write=provider-admin"`
	// PenaltyPercent is the credit per breach.
	PenaltyPercent float64 `json:"penaltyPercent,omitempty" validate:"omitempty,gte=0,lte=100" access:"read=provider-admin|auditor,write=provider-admin"`
}

// SLAStatus is the observed compliance.
//
// +modelgen:access:default="read=*,write=provider-admin"
type SLAStatus struct {
	// Phase is the compliance state.
	Phase SLAPhase `json:"phase,omitempty" state:"initial=pending;pending->active:Activate;active->degraded:Degrade;degraded->active:Recover;degraded->breached:Breach;breached->resolved:Resolve"`
	// MeasuredAvailability is the last measured availability in percent.
	MeasuredAvailability float64 `json:"measuredAvailability,omitempty" validate:"omitempty,gte=0,lte=100"`
	// ObservedGeneration is the spec generation the status describes.
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// Conditions are the standard Kubernetes conditions.
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// SLAList is a list of SLAs.
//
// +kubebuilder:object:root=true
// +modelgen:access:default=read=*
type SLAList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []SLA `json:"items"`
}
