package unknown

// Signup is a plain model.
// +modelgen:model
type Signup struct {
	// A typo for email: the registry suggests the closest keyword.
	Email string `json:"email" validate:"required,emial"`
	// Nothing close: no suggestion.
	Nick string `json:"nick" validate:"frobnicate"`
}
