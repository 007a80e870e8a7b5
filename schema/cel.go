package schema

import (
	"regexp"
	"strings"

	apiservercel "k8s.io/apiserver/pkg/cel"
)

// Every CEL rule modelgen writes reads a property of self (or oldSelf)
// through CELField, so that property names are escaped exactly as the API
// server escapes them when it declares an object's fields to CEL
// (k8s.io/apiserver/pkg/cel.Escape): a reserved word such as `in` or
// `namespace` becomes `__in__`, `-` `__dash__`, `.` `__dot__`, `/`
// `__slash__` and `__` `__underscores__`. A name with any other character,
// or starting with a digit, is not declared at all: no rule can read it,
// and model.CELReadable says so (Load refuses a rule on such a name).

// CELField is the selection of the JSON property name on base ("self",
// "oldSelf.value()"...), escaped as the API server expects; ok is false
// when no rule can read the property.
func CELField(base, name string) (sel string, ok bool) {
	escaped, ok := apiservercel.Escape(name)
	if !ok {
		return base + "[" + celQuote(name) + "]", false
	}
	return base + "." + escaped, true
}

// CELFieldPath is the fieldPath of a validation rule that points at a
// property of the object the rule is on: .name for a plain identifier,
// else ['name'].
func CELFieldPath(name string) string {
	if plainIdent.MatchString(name) {
		return "." + name
	}
	return "['" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(name) + "']"
}

// selfProp is self.<name>, escaped (see CELField).
func selfProp(name string) string {
	sel, _ := CELField("self", name)
	return sel
}

var plainIdent = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
