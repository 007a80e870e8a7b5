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

// The condition types of a PaymentOrder.
const (
	// ConditionReady is True once the order needs no more work from the
	// operator (Settled or Refunded), False while work is pending.
	ConditionReady = "Ready"
	// ConditionAuthorized is True while the gateway holds an authorization
	// or has charged it.
	ConditionAuthorized = "Authorized"
	// ConditionSettled is True once the money has moved.
	ConditionSettled = "Settled"
	// ConditionRefunded is True once a requested refund was paid back.
	ConditionRefunded = "Refunded"
)

// Finalizer is set on every PaymentOrder the operator has seen: it releases
// an outstanding authorization at the gateway before the order goes away.
const Finalizer = "payments.example.com/release-authorization"

// PaymentOrder is a request to move money from a payer to a payee.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:scope=Namespaced,shortName=pay,categories=payments
// +kubebuilder:printcolumn:name="Amount",type=number,JSONPath=`.spec.amount`
// +kubebuilder:printcolumn:name="Currency",type=string,JSONPath=`.spec.currency`
// +kubebuilder:printcolumn:name="Tenant",type=string,JSONPath=`.spec.tenantId`
// +kubebuilder:printcolumn:name="Phase",type=string,JSONPath=`.status.phase`
// +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
// +modelgen:access:default="read=*,write=tenant-admin"
type PaymentOrder struct {
	metav1.TypeMeta   `json:",inline" access:"read=*"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   PaymentOrderSpec   `json:"spec"`
	Status PaymentOrderStatus `json:"status,omitempty" access:"read=*,write=operator"`
}

// PaymentOrderSpec is what the payer asks for. What is charged (amount,
// currency, payer, payee, idempotency key) cannot change once the order
// exists; a refund, once requested, cannot be withdrawn.
//
// +modelgen:access:default="read=*,write=tenant-admin"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.refund) || has(self.refund)",message="a requested refund cannot be withdrawn"
type PaymentOrderSpec struct {
	// Amount in major units of Currency (a decimal number: 12.5 is twelve
	// euros fifty). The operator charges it in minor units, rounded to the
	// nearest one.
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="amount is immutable"
	Amount float64 `json:"amount" validate:"required,gte=0.01,lte=1000000"`
	// Currency is an ISO 4217 code.
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="currency is immutable"
	Currency string `json:"currency" validate:"required,len=3,alpha,uppercase,iso4217"`
	// PayerID identifies the paying account.
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="payerId is immutable"
	PayerID string `json:"payerId" validate:"required,min=12,max=34,alphanum" access:"read=tenant-admin|auditor,write=tenant-admin"`
	// PayeeID identifies the receiving account.
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="payeeId is immutable"
	PayeeID string `json:"payeeId" validate:"required,min=12,max=34,alphanum,nefield=PayerID" access:"read=tenant-admin|auditor|operator,write=tenant-admin"`
	// TenantID owns the order.
	TenantID string `json:"tenantId" validate:"required,min=1,max=63,hostname_rfc1123" access:"tenant"`
	// IdempotencyKey is the payer's own key for this order; the operator
	// sends it to the gateway as the order's reference. The operator's
	// gateway calls are made idempotent by keys of their own, derived from
	// the object's UID and the step.
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="idempotencyKey is immutable"
	IdempotencyKey string `json:"idempotencyKey,omitempty" validate:"omitempty,min=8,max=64,printascii" access:"read=tenant-admin|operator"`
	// Description is the payer's free text.
	Description string `json:"description,omitempty" validate:"omitempty,max=140,printascii" access:"read=tenant-admin|operator"`
	// Method says how the money moves.
	Method string `json:"method" validate:"required,oneof=card sepa 'wire transfer'"`
	// CardLast4 is required when Method is card.
	CardLast4 string `json:"cardLast4,omitempty" validate:"required_if=Method card,omitempty,len=4,number" access:"read=tenant-admin"`
	// Tags label the order.
	Tags []string `json:"tags,omitempty" validate:"omitempty,max=10,unique,dive,min=1,max=32,alphanum"`
	// Metadata holds extra key/value pairs.
	Metadata map[string]string `json:"metadata,omitempty" validate:"omitempty,max=16,dive,keys,min=1,max=63,endkeys,max=256" access:"read=tenant-admin|operator"`
	// Priority orders processing (1 is first; the API server writes 5 when
	// it is absent).
	// +kubebuilder:default=5
	Priority int32 `json:"priority,omitempty" validate:"omitempty,gte=1,lte=9" access:"read=tenant-admin|operator"`
	// Refund, when set, asks the operator to pay the whole amount back once
	// the order is settled.
	Refund *RefundRequest `json:"refund,omitempty"`
}

// RefundRequest asks for the money of a settled order back. Whoever may
// write the spec may write its fields (a refund is requested with its
// reason).
//
// +modelgen:access:default="read=*,write=tenant-admin"
type RefundRequest struct {
	// Reason says why, for the payer's records.
	Reason string `json:"reason" validate:"required,min=3,max=140,printascii"`
}

// PaymentOrderStatus is what the operator observed.
//
// +modelgen:access:default="read=*,write=operator"
type PaymentOrderStatus struct {
	// Phase is the lifecycle state.
	Phase PaymentPhase `json:"phase,omitempty" state:"initial=Submitted;Submitted->Authorized:Authorize;Authorized->Processed:Process;Processed->Settled:Settle;Processed->Submitted:Retry;Settled->Refunded:Refund"`
	// ObservedGeneration is the spec generation the status describes.
	ObservedGeneration int64 `json:"observedGeneration,omitempty" validate:"omitempty,gte=0"`
	// Conditions are Ready, Authorized, Settled and Refunded.
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty"`
	// Gateway names what the payment gateway holds for this order.
	Gateway *GatewayReference `json:"gateway,omitempty"`
	// Attempts counts the authorizations tried, the current one included.
	Attempts int32 `json:"attempts,omitempty" validate:"omitempty,gte=0"`
	// LastError is the last gateway error, cleared by the next success.
	LastError string `json:"lastError,omitempty" validate:"omitempty,max=1024"`
}

// GatewayReference holds the gateway's identifiers for an order: status,
// which every role reads and the operator writes.
//
// +modelgen:access:default="read=*,write=operator"
type GatewayReference struct {
	// AuthorizationID is the hold on the payer's funds.
	AuthorizationID string `json:"authorizationId,omitempty" validate:"omitempty,max=128"`
	// ChargeID is the captured charge.
	ChargeID string `json:"chargeId,omitempty" validate:"omitempty,max=128"`
	// RefundID is the refund, once paid.
	RefundID string `json:"refundId,omitempty" validate:"omitempty,max=128"`
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
