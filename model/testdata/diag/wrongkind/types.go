package wrongkind

// Account is a plain model.
// +modelgen:model
type Account struct {
	ID    int      `json:"id" validate:"email"`
	Flags []string `json:"flags" validate:"uuid"`
	Ok    bool     `json:"ok" validate:"min=1"`
}
