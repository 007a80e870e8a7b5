// Package controller reconciles WorkerSets.
package controller

// +kubebuilder:rbac:groups=jobs.example.com,resources=workersets,verbs=get;list;watch
// +kubebuilder:rbac:groups=jobs.example.com,resources=workersets/status,verbs=update
// +kubebuilder:rbac:groups=coordination.k8s.io,namespace=system,resources=leases,verbs=get

// Reconciler reconciles WorkerSets.
type Reconciler struct{}
