package optionalstruct

// Item has a rule its zero value fails.
type Item struct {
	Name string `json:"name" validate:"required"`
}

// Loose has none.
type Loose struct {
	Note string `json:"note,omitempty" validate:"omitempty,max=3"`
}

// Holder is a plain model.
// +modelgen:model
type Holder struct {
	// warned: the zero Item passes validator, and fails Item's rules
	Opt Item `json:"opt,omitempty" validate:"omitempty"`
	// exact, no diagnostic: a pointer, a struct whose zero passes, no omitempty
	Ptr   *Item `json:"ptr,omitempty" validate:"omitempty"`
	Fine  Loose `json:"fine,omitempty" validate:"omitempty"`
	Whole Item  `json:"whole"`
}
