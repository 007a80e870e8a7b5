package malformed

// Order is a plain model.
// +modelgen:model
type Order struct {
	Quantity int     `json:"quantity" validate:"gte=abc"`
	Small    int8    `json:"small" validate:"max=300"`
	Price    float64 `json:"price" validate:"lt=cheap"`
	Name     string  `json:"name" validate:"min=-1"`
	Method   string  `json:"method" validate:"oneof="`
}
