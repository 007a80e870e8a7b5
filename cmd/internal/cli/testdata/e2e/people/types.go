// Package people is a fixture for the CLI's end-to-end test.
package people

// Person is a plain model.
//
// +modelgen:model
type Person struct {
	Name string `json:"name" validate:"required,max=64"`
	Age  int    `json:"age,omitempty" validate:"omitempty,lte=150"`
}
