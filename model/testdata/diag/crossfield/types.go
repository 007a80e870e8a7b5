package crossfield

// Booking is a plain model.
// +modelgen:model
type Booking struct {
	Start int      `json:"start"`
	End   int      `json:"end" validate:"gtfield=Begin"`
	Name  string   `json:"name" validate:"gtfield=Start"`
	Mode  string   `json:"mode" validate:"required_if=Start"`
	Note  string   `json:"note" validate:"required_with=Inner.Name"`
	Tags  []string `json:"tags" validate:"dive,eqfield=Start"`
	Extra string   `json:"-"`
	Ref   string   `json:"ref" validate:"required_with=Extra"`
}
