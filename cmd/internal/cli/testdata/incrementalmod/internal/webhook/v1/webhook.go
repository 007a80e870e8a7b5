// Package v1 holds the fixture's marker webhooks, as kubebuilder's
// internal/webhook/v1 does.
package v1

import (
	alphav1 "example.com/incremental/api/a/v1"
)

// +kubebuilder:webhook:path=/mutate-a-example-com-v1-alpha,mutating=true,failurePolicy=fail,sideEffects=None,groups=a.example.com,resources=alphas,verbs=create;update,versions=v1,name=malpha-v1.kb.io,admissionReviewVersions=v1
// +kubebuilder:rbac:groups=a.example.com,resources=alphas/finalizers,verbs=update

// Defaulter defaults Alphas.
type Defaulter struct{}

// Default fills what an Alpha leaves out.
func (Defaulter) Default(a *alphav1.Alpha) {
	if a.Spec.Name == "" {
		a.Spec.Name = "alpha"
	}
}
