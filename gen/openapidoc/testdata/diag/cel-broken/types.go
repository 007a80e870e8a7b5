// Package quotes has CEL rules that only its OpenAPI document carries
// (plain models get no CRD): they are compiled all the same.
package quotes

// Quote is a plain model.
//
// +modelgen:model
// +kubebuilder:validation:XValidation:rule="self.nosuch > 0",message="no such field"
type Quote struct {
	// +kubebuilder:validation:XValidation:rule="self.size() > 'x'"
	Text  string `json:"text"`
	Lines []Line `json:"lines,omitempty"`
}

// Line is one line of a quote.
// +kubebuilder:validation:XValidation:rule="self.amount >= 0",messageExpression="'bad: ' + self.amount"
type Line struct {
	Amount int `json:"amount"`
}
