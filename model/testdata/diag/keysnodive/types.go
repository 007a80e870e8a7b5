package keysnodive

// Labels is a plain model.
// +modelgen:model
type Labels struct {
	Meta map[string]string `json:"meta" validate:"keys,min=1,endkeys"`
	More map[string]string `json:"more" validate:"dive,min=1,keys,max=3,endkeys"`
}
