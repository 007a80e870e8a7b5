package markerbounds

// Window is a plain model.
// +modelgen:model
type Window struct {
	// +kubebuilder:validation:MaxLength=3
	Name string `json:"name,omitempty" validate:"omitempty,min=5"`
	// +kubebuilder:validation:Minimum=10
	Size int `json:"size,omitempty" validate:"omitempty,gte=1"`
	// +kubebuilder:validation:MinItems=1
	Tags []string `json:"tags,omitempty" validate:"omitempty,max=3"`
	// +kubebuilder:validation:Maximum=5
	// +kubebuilder:validation:ExclusiveMaximum=true
	Ratio float64 `json:"ratio" validate:"lte=5"`
	// Not errors: as loose as the tag, or looser.
	// +kubebuilder:validation:MaxLength=10
	// +kubebuilder:validation:MinLength=2
	Code string `json:"code" validate:"min=2,max=8"`
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=255
	Level uint8 `json:"level" validate:"lte=200"`
	// +kubebuilder:validation:MaxLength=3
	Untagged string `json:"untagged"`
}
