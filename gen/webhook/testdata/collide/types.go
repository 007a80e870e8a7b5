// Package collide declares the name the generated webhook of Order needs.
//
// +groupName=collide.example.com
// +versionName=v1
package collide

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Order needs a webhook (iso4217).
//
// +kubebuilder:object:root=true
type Order struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Currency          string `json:"currency" validate:"required,iso4217"`
}

// OrderWebhook is the application's own.
type OrderWebhook struct{}
