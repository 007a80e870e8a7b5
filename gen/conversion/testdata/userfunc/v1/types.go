// Package v1 is the stored version of the case's group.
//
// +groupName=case.example.com
// +modelgen:conversion=webhook
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Thing is served in v1alpha1 and v1.
//
// +kubebuilder:object:root=true
// +kubebuilder:storageversion
type Thing struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec ThingSpec `json:"spec"`
}

// ThingSpec is the desired thing.
type ThingSpec struct {
	Size   int32 `json:"size"`
	Amount Money `json:"amount"`
}

// Money is an amount split into units and a currency.
type Money struct {
	Units    int64  `json:"units"`
	Currency string `json:"currency"`
}
