package runtimeonly

// Customer is a plain model.
// +modelgen:model
type Customer struct {
	Currency string `json:"currency" validate:"required,len=3,uppercase,iso4217"`
	Website  string `json:"website" validate:"omitempty,url"`
}
