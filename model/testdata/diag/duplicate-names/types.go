package types

// Order has two fields named "dup" (encoding/json ignores both), and a
// tagged field that beats an untagged one; one real error keeps the run
// failing so the golden shows the warnings.
// +modelgen:model
type Order struct {
	Dup1  string `json:"dup"`
	Dup2  string `json:"dup"`
	Label string
	Title string `json:"Label"`
	Bad   string `json:"bad" validate:"gte"`
}
