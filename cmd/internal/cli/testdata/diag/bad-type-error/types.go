package types

// Order is fine; the function below does not compile.
// +modelgen:model
type Order struct {
	Name string `json:"name"`
}

func count() int { return "many" }
