package several

// Party is reached through Payment.
type Party struct {
	Name string `json:"name" validate:"required,,max=3"`
	IBAN string `json:"iban" validate:"required,ibann"`
}
