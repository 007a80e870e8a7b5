// +groupName=payments.example.com
package v1alpha1

//go:generate go tool modelgen generate .

// PaymentOrder is a request to move money.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type PaymentOrder struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              PaymentOrderSpec   `json:"spec"`
	Status            PaymentOrderStatus `json:"status,omitempty"`
}

type PaymentOrderSpec struct {
	Amount   float64 `json:"amount"   validate:"required,gte=0.01"`
	Currency string  `json:"currency" validate:"required,len=3,alpha"`
}
