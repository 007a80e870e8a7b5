package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// SLAPhase is where a contract is in its lifecycle.
type SLAPhase string

const (
	// SLAPending: created, not yet measured healthy.
	SLAPending SLAPhase = "pending"
	// SLAActive: the service meets the contract.
	SLAActive SLAPhase = "active"
	// SLADegraded: availability stayed below the degrade threshold long enough.
	SLADegraded SLAPhase = "degraded"
	// SLABreached: availability stayed below the breach threshold long enough;
	// compensation is owed.
	SLABreached SLAPhase = "breached"
	// SLAResolved: the customer acknowledged the breach.
	SLAResolved SLAPhase = "resolved"
)

// SLAContract is a service-level contract between a provider and a
// customer: an availability objective, measured by a PromQL query, with
// thresholds that degrade, recover and breach it, and the compensation owed
// on a breach.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced,shortName=slac
// +kubebuilder:printcolumn:name="Service",type=string,JSONPath=`.spec.service`
// +kubebuilder:printcolumn:name="Objective",type=number,JSONPath=`.spec.objective`
// +kubebuilder:printcolumn:name="Availability",type=number,JSONPath=`.status.measurement.availabilityPercent`
// +kubebuilder:printcolumn:name="Phase",type=string,JSONPath=`.status.phase`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
// +modelgen:access:default="read=*,write=provider-admin"
type SLAContract struct {
	metav1.TypeMeta   `json:",inline" access:"read=*"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   SLAContractSpec   `json:"spec" access:"read=*,write=customer-admin|provider-admin"`
	Status SLAContractStatus `json:"status,omitempty"`
}

// SLAContractSpec is what provider and customer agreed.
//
// +modelgen:access:default="read=*,write=provider-admin"
type SLAContractSpec struct {
	// Service names the covered service.
	Service string `json:"service" validate:"required,min=1,max=63,hostname_rfc1123"`
	// Customer identifies the customer tenant.
	Customer string `json:"customer" validate:"required,min=1,max=63,hostname_rfc1123" access:"tenant"`
	// Objective is the promised availability in percent, such as 99.9.
	Objective float64 `json:"objective" validate:"required,gte=50,lt=100"`
	// Query is the PromQL expression whose single series is the success
	// ratio of the service, from 0 to 1. Every `$window` in it is replaced by
	// WindowSeconds as a Prometheus duration (for example `60s`).
	Query string `json:"query" validate:"required,min=1,max=4096"`
	// WindowSeconds is the evaluation window: the range the query's rates
	// are taken over.
	WindowSeconds int32 `json:"windowSeconds" validate:"required,min=1,max=86400"`
	// IntervalSeconds is the evaluation grid (default 30): the operator
	// evaluates the query at multiples of it, reads one point per interval,
	// and measures how long a threshold has held to it. The longest
	// threshold duration over it must stay below Prometheus' limit of 11000
	// points per query, or the evaluation fails with QueryFailed.
	IntervalSeconds int32 `json:"intervalSeconds,omitempty" validate:"omitempty,min=1,max=3600"`
	// Thresholds move the contract between active, degraded and breached.
	Thresholds Thresholds `json:"thresholds"`
	// Compensation is what the provider owes on a breach.
	Compensation CompensationPolicy `json:"compensation" access:"read=customer-admin|provider-admin|auditor,write=provider-admin"`
	// Acknowledgement is set by the customer to resolve a breach: who
	// acknowledged it, and why.
	Acknowledgement string `json:"acknowledgement,omitempty" validate:"omitempty,min=1,max=256" access:"read=*,write=customer-admin"`
}

// Thresholds are availability levels, in percent, and how long each must
// hold before the contract changes phase. Their order is enforced:
// RecoverAtPercent >= DegradeBelowPercent >= BreachBelowPercent.
type Thresholds struct {
	// DegradeBelowPercent: an active contract becomes degraded when
	// availability stays below it for DegradeForSeconds (95: below 95%).
	DegradeBelowPercent float64 `json:"degradeBelowPercent" validate:"required,gt=0,lte=100"`
	// DegradeForSeconds is how long availability must stay below
	// DegradeBelowPercent.
	DegradeForSeconds int32 `json:"degradeForSeconds" validate:"required,min=1,max=86400"`
	// RecoverAtPercent: a degraded contract becomes active again when
	// availability stays at or above it for RecoverForSeconds.
	RecoverAtPercent float64 `json:"recoverAtPercent" validate:"required,gt=0,lte=100,gtefield=DegradeBelowPercent"`
	// RecoverForSeconds is how long availability must stay at or above
	// RecoverAtPercent.
	RecoverForSeconds int32 `json:"recoverForSeconds" validate:"required,min=1,max=86400"`
	// BreachBelowPercent: a degraded contract is breached when availability
	// stays below it for BreachForSeconds.
	BreachBelowPercent float64 `json:"breachBelowPercent" validate:"required,gt=0,lte=100,ltefield=DegradeBelowPercent"`
	// BreachForSeconds is how long availability must stay below
	// BreachBelowPercent.
	BreachForSeconds int32 `json:"breachForSeconds" validate:"required,min=1,max=86400"`
}

// CompensationPolicy computes the credit owed for a breach, as a percentage
// of the monthly fee: BaseCreditPercent, plus CreditPercentPerPoint for each
// percentage point the measured availability is below the objective, at most
// MaxCreditPercent. The amount is rounded to the cent.
type CompensationPolicy struct {
	// Currency is the ISO 4217 code of the fee and the credit.
	Currency string `json:"currency" validate:"required,len=3,alpha,uppercase,iso4217"`
	// MonthlyFeeCents is the monthly fee in cents.
	MonthlyFeeCents int64 `json:"monthlyFeeCents" validate:"required,min=1,max=100000000000"`
	// BaseCreditPercent is credited for every breach.
	BaseCreditPercent float64 `json:"baseCreditPercent,omitempty" validate:"gte=0,lte=100"`
	// CreditPercentPerPoint is credited for each percentage point of
	// availability below the objective.
	CreditPercentPerPoint float64 `json:"creditPercentPerPoint,omitempty" validate:"gte=0,lte=100"`
	// MaxCreditPercent caps the credit of one breach.
	MaxCreditPercent float64 `json:"maxCreditPercent" validate:"required,gt=0,lte=100,gtefield=BaseCreditPercent"`
}

// SLAContractStatus is what the operator measured and decided.
//
// +modelgen:access:default="read=*,write=provider-admin"
type SLAContractStatus struct {
	// Phase is the lifecycle state. Each transition is guarded: see the
	// guards of the same name in the operator.
	Phase SLAPhase `json:"phase,omitempty" state:"initial=pending;pending->active:Activate[Healthy];active->degraded:Degrade[DegradeHeld];degraded->active:Recover[RecoverHeld];degraded->breached:Breach[BreachHeld];breached->resolved:Resolve[Acknowledged]"`
	// Measurement is the latest evaluation of the query.
	Measurement *Measurement `json:"measurement,omitempty"`
	// BelowDegradeSince is when availability went below
	// DegradeBelowPercent and stayed there, up to the latest measurement.
	BelowDegradeSince *metav1.Time `json:"belowDegradeSince,omitempty"`
	// RecoverSince is when availability reached RecoverAtPercent and stayed
	// at or above it, up to the latest measurement.
	RecoverSince *metav1.Time `json:"recoverSince,omitempty"`
	// BelowBreachSince is when availability went below BreachBelowPercent
	// and stayed there, up to the latest measurement.
	BelowBreachSince *metav1.Time `json:"belowBreachSince,omitempty"`
	// Breaches records every breach with the compensation computed for it.
	Breaches []BreachRecord `json:"breaches,omitempty" validate:"omitempty,max=64,dive"`
	// ObservedGeneration is the spec generation the status describes.
	ObservedGeneration int64 `json:"observedGeneration,omitempty" validate:"omitempty,gte=0"`
	// Conditions: MetricsAvailable says whether the last evaluation
	// succeeded and why not; Compliant whether the contract is met.
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// Measurement is one evaluation of the query.
type Measurement struct {
	// AvailabilityPercent is the success ratio in percent.
	AvailabilityPercent float64 `json:"availabilityPercent" validate:"gte=0,lte=100"`
	// Time is the evaluation time.
	Time metav1.Time `json:"time"`
}

// BreachRecord is one breach and the compensation computed for it.
type BreachRecord struct {
	// Since is when availability went below the breach threshold.
	Since metav1.Time `json:"since"`
	// DetectedAt is when the breach threshold had held long enough.
	DetectedAt metav1.Time `json:"detectedAt"`
	// AvailabilityPercent is the availability measured at DetectedAt.
	AvailabilityPercent float64 `json:"availabilityPercent" validate:"gte=0,lte=100"`
	// CreditPercent is the share of the monthly fee credited.
	CreditPercent float64 `json:"creditPercent" validate:"gte=0,lte=100"`
	// CompensationCents is the credit in cents of Currency.
	CompensationCents int64 `json:"compensationCents" validate:"gte=0"`
	// Currency is the ISO 4217 code of the credit.
	Currency string `json:"currency" validate:"required,len=3"`
}

// SLAContractList is a list of SLAContracts.
//
// +kubebuilder:object:root=true
// +modelgen:access:default=read=*
type SLAContractList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []SLAContract `json:"items"`
}
