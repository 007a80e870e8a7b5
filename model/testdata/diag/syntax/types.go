package syntax

// Form is a plain model.
// +modelgen:model
type Form struct {
	A string `json:"a" validate:"required,"`
	B string `json:"b" validate:"required, min=1"`
	C string `json:"c" validate:"omitempty|required"`
	D string `json:"d" validate:"required,-"`
	E string `json:"e" validate:"omitempty,omitnil,min=1"`
	// An empty tag and "-" are fine: no checks.
	F string `json:"f" validate:""`
	G string `json:"g" validate:"-"`
}
