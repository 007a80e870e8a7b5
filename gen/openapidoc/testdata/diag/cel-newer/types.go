// Package hosts has CEL rules a user wrote with CEL libraries newer than
// the generated CRDs' minimum Kubernetes (1.31): each is a warning naming
// the first Kubernetes whose API server accepts it. The run still writes.
package hosts

// Host is a plain model.
//
// +modelgen:model
type Host struct {
	// the format library: Kubernetes 1.32
	// +kubebuilder:validation:XValidation:rule="!format.dns1123Label().validate(self).hasValue()"
	Name string `json:"name"`
	// semver: Kubernetes 1.34
	// +kubebuilder:validation:XValidation:rule="isSemver(self)"
	Version string `json:"version"`
	// in every supported version: no warning
	// +kubebuilder:validation:XValidation:rule="self.size() < 10"
	Zone string `json:"zone"`
}
