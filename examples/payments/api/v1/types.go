package v1

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
// +kubebuilder:printcolumn:name="Units",type=integer,JSONPath=`.spec.amount.units`
// +kubebuilder:printcolumn:name="Currency",type=string,JSONPath=`.spec.amount.currency`
// +kubebuilder:printcolumn:name="Tenant",type=string,JSONPath=`.spec.tenantId`
// +kubebuilder:printcolumn:name="Phase",type=string,JSONPath=`.status.phase`
// +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=`.status.conditions[?(@.type=="Ready")].status`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
// +modelgen:access:default="read=*,write=tenant-admin"
// +kubebuilder:storageversion
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
	// Amount is what is charged, in minor units of its currency. It was
	// amount (a decimal number of major units) and currency in v1alpha1.
	// +modelgen:conversion:from=amount;currency
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="amount is immutable"
	Amount Money `json:"amount"`
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

// Money is an amount in minor units of a currency (cents for EUR, yen for
// JPY: MinorDigits says how many digits a currency's minor unit has).
// Whoever may write the spec may write its fields, as v1alpha1's amount and
// currency.
//
// +modelgen:access:default="read=*,write=tenant-admin"
type Money struct {
	// Units is the amount in minor units (1250 EUR is 12.50 euros).
	Units int32 `json:"units" validate:"required,gte=1,lte=1000000000"`
	// Currency is an ISO 4217 code.
	Currency string `json:"currency" validate:"required,len=3,alpha,uppercase,iso4217"`
}

// minorDigits lists the ISO 4217 currencies whose minor unit is not a
// hundredth.
var minorDigits = map[string]int{
	"BHD": 3, "BIF": 0, "CLP": 0, "DJF": 0, "GNF": 0, "IQD": 3, "ISK": 0, "JOD": 3, "JPY": 0, "KMF": 0,
	"KRW": 0, "KWD": 3, "LYD": 3, "OMR": 3, "PYG": 0, "RWF": 0, "TND": 3, "UGX": 0, "UYI": 0, "VND": 0,
	"VUV": 0, "XAF": 0, "XOF": 0, "XPF": 0,
}

// MinorDigits is the number of decimal digits of the currency's minor unit
// (ISO 4217's exponent): 2 for EUR and USD, 0 for JPY, 3 for KWD.
func MinorDigits(currency string) int {
	if d, ok := minorDigits[currency]; ok {
		return d
	}
	return 2
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
