package divenonslice

// Labels is a plain model.
// +modelgen:model
type Labels struct {
	Name  string            `json:"name" validate:"dive,required"`
	Count *int              `json:"count" validate:"omitempty,dive,min=1"`
	Tags  []string          `json:"tags" validate:"dive,keys,min=1,endkeys,required"`
	Meta  map[string]string `json:"meta" validate:"dive,keys,min=1,endkeys,required"`
}
