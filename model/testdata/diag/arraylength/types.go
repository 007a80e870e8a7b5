package arraylength

// Pairs is a plain model.
// +modelgen:model
type Pairs struct {
	Short [2]int `json:"short" validate:"min=3"`
	Long  [2]int `json:"long" validate:"len=1"`
	Not   [2]int `json:"not" validate:"ne=2"`
	// Not errors: a Go array always has its length.
	Exact [2]int `json:"exact" validate:"len=2,max=5"`
	Tags  []int  `json:"tags" validate:"min=3"`
}
