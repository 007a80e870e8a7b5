// Package hooks serves the WorkerSet webhooks.
package hooks

// +kubebuilder:webhook:path=/mutate-jobs-example-com-v1-workerset,mutating=true,failurePolicy=fail,sideEffects=None,groups=jobs.example.com,resources=workersets,verbs=create;update,versions=v1,name=mworkerset-v1.kb.io,admissionReviewVersions=v1

// Defaulter defaults WorkerSets.
type Defaulter struct{}
