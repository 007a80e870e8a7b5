// Package pairs asks for deepcopy on every type, and one is generic:
// controller-tools cannot copy a type with type parameters, so the error
// is one, at the type, and says what to do (not a list of errors in a
// generated file that is never written).
// +kubebuilder:object:generate=true
package pairs

// Pair is a generic helper.
type Pair[T any] struct {
	A, B T
}

// Thing uses it.
type Thing struct {
	Name string       `json:"name"`
	P    Pair[string] `json:"p"`
}
