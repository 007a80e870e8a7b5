// Package v1 holds the CronJob webhooks.
package v1

// +kubebuilder:webhook:path=/mutate-batch-example-com-v1-cronjob,mutating=true,failurePolicy=fail,sideEffects=None,groups=batch.example.com,resources=cronjobs,verbs=create;update,versions=v1,name=mcronjob-v1.kb.io,admissionReviewVersions=v1
// +kubebuilder:webhook:path=/validate-batch-example-com-v1-cronjob,mutating=false,failurePolicy=ignore,sideEffects=NoneOnDryRun,matchPolicy=Equivalent,timeoutSeconds=5,groups=batch.example.com,resources=cronjobs;cronjobs/status,verbs=create;update;delete,versions=v1,name=vcronjob-v1.kb.io,admissionReviewVersions=v1;v1beta1
// +kubebuilder:webhook:path=/mutate-pods,mutating=true,reinvocationPolicy=IfNeeded,failurePolicy=fail,sideEffects=None,groups="",resources=pods,verbs=create,versions=v1,name=mpod.kb.io,admissionReviewVersions=v1,serviceName=guestbook-webhooks,serviceNamespace=guestbook-system,servicePort=9443
// +kubebuilder:webhook:url=https://hooks.example.com/validate,mutating=false,failurePolicy=fail,sideEffects=None,groups=apps,resources=deployments,verbs=create;update,versions=v1,name=vdeployment.kb.io,admissionReviewVersions=v1

// CronJobCustomDefaulter sets defaults on CronJobs.
type CronJobCustomDefaulter struct{}
