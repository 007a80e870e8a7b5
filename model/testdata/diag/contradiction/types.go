package contradiction

// Window is a plain model.
// +modelgen:model
type Window struct {
	Size  int     `json:"size" validate:"min=5,max=3"`
	Name  string  `json:"name" validate:"gt=4,lt=5"`
	Ratio float64 `json:"ratio" validate:"gt=1,lte=1"`
	Code  string  `json:"code" validate:"len=3,min=4"`
	Items []int   `json:"items" validate:"eq=2,gt=2"`
	// Not contradictions: exactly 2; 5; anything strictly between 4 and 5.
	Exact  int     `json:"exact" validate:"gte=2,lte=2"`
	Five   int     `json:"five" validate:"gt=4,lt=6"`
	Factor float64 `json:"factor" validate:"gt=4,lt=5"`
	// Each element: no element can pass.
	Parts []string `json:"parts" validate:"dive,min=3,max=2"`
}
