// Package controller is the operator of the incremental run's fixture:
// it imports every API package, as a kubebuilder controller does, and its
// +kubebuilder:rbac markers make the operator's role.
package controller

import (
	alphav1 "example.com/incremental/api/a/v1"
	betav1 "example.com/incremental/api/b/v1"
	gammav1 "example.com/incremental/api/c/v1"
	epsilonv1 "example.com/incremental/api/e/v1"
	deltav1 "example.com/incremental/api/g/v1"
)

// +kubebuilder:rbac:groups=a.example.com,resources=alphas,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=a.example.com,resources=alphas/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=b.example.com;c.example.com,resources=betas;gammas,verbs=get;list;watch
// +kubebuilder:rbac:groups=core,resources=events,verbs=create;patch

// Reconciler reconciles the fixture's kinds.
type Reconciler struct {
	Name string
}

// Kinds are the kinds it reconciles.
var Kinds = []any{&alphav1.Alpha{}, &betav1.Beta{}, &gammav1.Gamma{}, &epsilonv1.Epsilon{}, &deltav1.Delta{}}
