// Package controller reconciles CronJobs.
package controller

import "context"

// CronJobReconciler reconciles a CronJob object.
type CronJobReconciler struct{}

// +kubebuilder:rbac:groups=batch.example.com,resources=cronjobs,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=batch.example.com,resources=cronjobs/status,verbs=get;update;patch
// +kubebuilder:rbac:groups=batch.example.com,resources=cronjobs/finalizers,verbs=update
// +kubebuilder:rbac:groups=batch.example.com,resources=cronjobs,verbs=get;list
// +kubebuilder:rbac:groups="",resources=pods,verbs=get;list;watch
// +kubebuilder:rbac:groups=core,resources=pods/log,verbs=get
// +kubebuilder:rbac:groups="",resources=configmaps,resourceNames=cronjob-settings;cronjob-flags,verbs=get;update
// +kubebuilder:rbac:groups=apps;batch,resources=deployments;jobs,verbs=get;list;watch
// +kubebuilder:rbac:urls=/metrics;/healthz,verbs=get
// +kubebuilder:rbac:groups=coordination.k8s.io,namespace=system,resources=leases,verbs=get;create;update
// +kubebuilder:rbac:groups=events.k8s.io,namespace=system,resources=events,verbs=create;patch
// +kubebuilder:rbac:groups="",namespace=tenants,resources=secrets,resourceNames=cronjob-token,verbs=get

// Reconcile moves a CronJob towards its desired state.
func (r *CronJobReconciler) Reconcile(ctx context.Context, name string) error {
	return nil
}
