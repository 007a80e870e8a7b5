package controller

// A second file of the package: its markers merge with the first's.
// +kubebuilder:rbac:groups=batch.example.com,resources=cronjobs,verbs=deletecollection
// +kubebuilder:rbac:groups=coordination.k8s.io,namespace=system,resources=leases,verbs=list;watch

// Leases is the leader-election lock's name.
const Leases = "guestbook-lock"
