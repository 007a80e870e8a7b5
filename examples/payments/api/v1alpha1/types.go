package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// PaymentPhase is where a payment order is in its lifecycle.
type PaymentPhase string

const (
	PhaseSubmitted  PaymentPhase = "Submitted"
	PhaseAuthorized PaymentPhase = "Authorized"
	PhaseProcessed  PaymentPhase = "Processed"
	PhaseSettled    PaymentPhase = "Settled"
	PhaseRefunded   PaymentPhase = "Refunded"
)

// PaymentOrder is a request to move money from a payer to a payee.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced,shortName=po
// +kubebuilder:printcolumn:name="Amount",type=string,JSONPath=`.spec.amount`
// +kubebuilder:printcolumn:name="Currency",type=string,JSONPath=`.spec.currency`
// +kubebuilder:printcolumn:name="Phase",type=string,JSONPath=`.status.phase`
// +modelgen:access:default="read=*,write=tenant-admin"
type PaymentOrder struct {
	metav1.TypeMeta   `json:",inline" access:"read=*"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   PaymentOrderSpec   `json:"spec"`
	Status PaymentOrderStatus `json:"status,omitempty" access:"read=*,write=operator"`
}

// PaymentOrderSpec is what the payer asks for.
//
// +modelgen:access:default="read=*,write=tenant-admin"
type PaymentOrderSpec struct {
	// Amount in major units of Currency.
	Amount float64 `json:"amount" validate:"required,gte=0.01,lte=1000000"`
	// Currency is an ISO 4217 code.
	Currency string `json:"currency" validate:"required,len=3,alpha,uppercase,iso4217"`
	// PayerID identifies the paying account.
	PayerID string `json:"payerId" validate:"required,min=12,max=34,alphanum" access:"read=tenant-admin|auditor,write=tenant-admin"`
	// PayeeID identifies the receiving account.
	PayeeID string `json:"payeeId" validate:"required,min=12,max=34,alphanum,nefield=PayerID" access:"read=tenant-admin|auditor|operator,write=tenant-admin"`
	// TenantID owns the order.
	TenantID string `json:"tenantId" validate:"required,min=1,max=63,hostname_rfc1123" access:"tenant"`
	// Reference is the payer's free text.
	Reference string `json:"reference,omitempty" validate:"omitempty,max=140,printascii" access:"read=tenant-admin|operator"`
	// Method says how the money moves.
	Method string `json:"method" validate:"required,oneof=card sepa 'wire transfer'"`
	// CardLast4 is required when Method is card.
	CardLast4 string `json:"cardLast4,omitempty" validate:"required_if=Method card,omitempty,len=4,number" access:"read=tenant-admin"`
	// Tags label the order.
	Tags []string `json:"tags,omitempty" validate:"omitempty,max=10,unique,dive,min=1,max=32,alphanum"`
	// Metadata holds extra key/value pairs.
	Metadata map[string]string `json:"metadata,omitempty" validate:"omitempty,max=16,dive,keys,min=1,max=63,endkeys,max=256" access:"read=tenant-admin|operator"`
	// Priority orders processing (1 is first).
	Priority int32 `json:"priority,omitempty" validate:"omitempty,gte=1,lte=9" access:"read=tenant-admin|operator"`
}

// PaymentOrderStatus is what the controller observed.
//
// +modelgen:access:default="read=*,write=operator"
type PaymentOrderStatus struct {
	// Phase is the lifecycle state.
	Phase PaymentPhase `json:"phase,omitempty" state:"initial=Submitted;Submitted->Authorized:Authorize;Authorized->Processed:Process;Processed->Settled:Settle;Processed->Submitted:Retry;Settled->Refunded:Refund"`
	// ObservedGeneration is the spec generation the status describes.
	ObservedGeneration int64 `json:"observedGeneration,omitempty" validate:"omitempty,gte=0"`
	// Conditions are the standard Kubernetes conditions.
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// PaymentOrderList is a list of PaymentOrders.
//
// +kubebuilder:object:root=true
// +modelgen:access:default=read=*
type PaymentOrderList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []PaymentOrder `json:"items"`
}
