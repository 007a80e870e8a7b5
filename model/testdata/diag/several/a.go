package several

// Payment is a plain model; every mistake in it is reported in one run.
// +modelgen:model
type Payment struct {
	Currency string  `json:"currency" validate:"required,len=3,isocode"`
	Amount   float64 `json:"amount" validate:"required,gte=0.01,lte=abc"`
	Count    int     `json:"count" validate:"email,min=10,max=1"`
	Items    string  `json:"items" validate:"dive,required"`
	Payee    Party   `json:"payee"`
}
