// Package v1 is a test API that uses every validate keyword modelgen maps to
// a schema or a CEL rule; the envtest suite applies its generated CRD to a
// real kube-apiserver and checks each rule there.
//
// +kubebuilder:object:generate=true
// +groupName=e2e.modelgen.dev
package v1
