package model

import (
	"strconv"

	apiservercel "k8s.io/apiserver/pkg/cel"
)

// CELReadable reports whether CEL rules can read a property of that name:
// the API server declares an object's fields to CEL escaped
// (k8s.io/apiserver/pkg/cel.Escape), and a name with a character it cannot
// escape, or starting with a digit, is not declared at all. Load refuses a
// rule (a cross-field keyword, a state machine) on such a name; schema's
// CELField writes the selections.
func CELReadable(name string) bool {
	_, ok := apiservercel.Escape(name)
	return ok
}

// CELUnreadable is the message for a property CEL rules cannot read.
func CELUnreadable(name string) string {
	return "the API server's CEL cannot read a property named " + strconv.Quote(name) +
		" (it sees only names of letters, digits, '_', '.', '-' and '/' that do not start with a digit)"
}
