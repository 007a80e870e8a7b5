package model

import (
	"fmt"
	"strconv"
)

// Class says how far the generated schemas can carry a keyword.
type Class int

const (
	// Schema: expressed with OpenAPI keywords (bounds, pattern, enum, not...).
	Schema Class = iota
	// CEL: expressed as a CEL rule (x-kubernetes-validations), enforced by
	// the API server; the OpenAPI document carries the rule as an extension.
	CEL
	// Runtime: enforced by validator at run time only; a warning says so.
	Runtime
	// Structural: part of the tag grammar (omitempty, dive...).
	Structural
)

func (c Class) String() string {
	return [...]string{"schema", "cel", "runtime only", "structural"}[c]
}

// Target is the document a schema is built for.
type Target int

const (
	TargetOpenAPI Target = iota
	TargetCRD
)

// Keyword is one validator keyword the generator understands. Each keyword
// is a typed value in the registry; it checks its own parameter and the kind
// it is used on, and says what the schemas can carry of a use. How a use is
// written into a schema (its lowering) is package schema's: the model is
// the IR, and imports no backend.
type Keyword interface {
	Name() string
	Class() Class
	// Doc is one line for the README's tag table.
	Doc() string
	// Schema says, for the README's table, what the keyword becomes.
	Schema() string
	// Resolve checks the kind of the value and parses the parameter,
	// returning the value to keep in Use.Value.
	Resolve(u *Use) (any, error)
	// Carry says, for a resolved use, what the CRD's schema can carry of
	// it; Load warns at the uses no schema carries (Model.RuntimeOnly).
	Carry(u *Use) Carry
}

// Carry is what the generated schemas can say of one use of a keyword.
// The model decides it at Load, for the diagnostics and the IR
// (Model.RuntimeOnly, which the webhook enforces); schema's lowering
// follows it, and its tests hold the two together.
type Carry struct {
	// RuntimeOnly, when set, says why no schema carries the use: validator
	// enforces it at run time only, and the lowering writes nothing.
	RuntimeOnly string
	// CRDRule: the CRD carries the use as a CEL rule. anyOf cannot hold a
	// rule, so an alternative (a|b) with such a use is runtime only.
	CRDRule bool
	// OnKey: after keys, a CEL rule over each (string) map key says it.
	OnKey bool
}

// PatternKeyword is a keyword defined by validator's own regular
// expression: strings match Pattern; numbers always pass, or lie within
// NumberRange when lo != hi (latitude, longitude).
type PatternKeyword interface {
	Keyword
	Pattern() string
	NumberRange() (lo, hi float64)
}

// FormulaKeyword is a keyword the API server's CEL libraries check with one
// formula over self (ip, cidr...); Doc says what the value must be.
type FormulaKeyword interface {
	Keyword
	Formula() string
}

// kinds is a set of kinds a keyword accepts.
type kinds uint32

func kindSet(ks ...Kind) kinds {
	var s kinds
	for _, k := range ks {
		s |= 1 << k
	}
	return s
}

func (s kinds) has(k Kind) bool { return s&(1<<k) != 0 }

func (s kinds) String() string {
	var names []string
	seen := map[string]bool{}
	for k := KindString; k <= KindRaw; k++ {
		if s.has(k) && !seen[k.String()] {
			seen[k.String()] = true
			names = append(names, k.String())
		}
	}
	return joinOr(names)
}

func joinOr(names []string) string {
	switch len(names) {
	case 0:
		return "nothing"
	case 1:
		return names[0]
	}
	out := ""
	for i, n := range names {
		switch {
		case i == 0:
		case i == len(names)-1:
			out += " or "
		default:
			out += ", "
		}
		out += n
	}
	return out
}

var (
	strKinds    = kindSet(KindString)
	numKinds    = kindSet(KindInt, KindFloat, KindDuration)
	lenKinds    = kindSet(KindString, KindSlice, KindMap, KindBytes)
	sizedKinds  = lenKinds | numKinds | kindSet(KindTime)
	scalarKinds = strKinds | numKinds | kindSet(KindBool)
	anyKinds    = ^kinds(0)
)

// ValueKind is the kind a keyword sees: validator looks through pointers,
// and a metav1.Duration or a Quantity is a struct to it.
func ValueKind(t *TypeRef) Kind {
	t = t.Deref()
	if t == nil {
		return KindInvalid
	}
	if t.Kind == KindMetaDuration || t.Kind == KindQuantity {
		return KindStruct
	}
	return t.Kind
}

func checkKind(u *Use, ok kinds) error {
	if k := ValueKind(u.Type); !ok.has(k) {
		return fmt.Errorf("%q applies to %s values, not to %s (%s)", u.Name, ok, k, u.Type.GoType)
	}
	return nil
}

// HasParam reports whether the use wrote '=' with a parameter.
func (u *Use) HasParam() bool { return u.Param != "" }

// JSONValue converts a parameter to the JSON value of the use's kind.
func JSONValue(t *TypeRef, s string) (any, error) {
	switch ValueKind(t) {
	case KindInt, KindDuration:
		if t.Deref().Unsigned {
			return strconv.ParseUint(s, 0, 64)
		}
		return strconv.ParseInt(s, 0, 64)
	case KindFloat:
		return strconv.ParseFloat(s, 64)
	case KindBool:
		return strconv.ParseBool(s)
	}
	return s, nil
}

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }
