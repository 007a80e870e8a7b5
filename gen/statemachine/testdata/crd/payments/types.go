// Package payments mirrors the PaymentOrder example's state machine (the
// same tag, checked by TestTestdataMirrorsExamples) in a package of its own,
// so the CEL tests do not depend on the rest of the example.
//
// +groupName=payments.example.com
package payments

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

type PaymentPhase string

const (
	PhaseSubmitted  PaymentPhase = "Submitted"
	PhaseAuthorized PaymentPhase = "Authorized"
	PhaseProcessed  PaymentPhase = "Processed"
	PhaseSettled    PaymentPhase = "Settled"
	PhaseRefunded   PaymentPhase = "Refunded"
)

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type PaymentOrder struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   PaymentOrderSpec   `json:"spec,omitempty"`
	Status PaymentOrderStatus `json:"status,omitempty"`
}

type PaymentOrderSpec struct {
	Reference string `json:"reference,omitempty"`
}

type PaymentOrderStatus struct {
	// Phase is the lifecycle state.
	Phase PaymentPhase `json:"phase,omitempty" state:"initial=Submitted;Submitted->Authorized:Authorize;Authorized->Processed:Process;Processed->Settled:Settle;Processed->Submitted:Retry;Settled->Refunded:Refund"`
}
