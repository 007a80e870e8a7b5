package model

import (
	"fmt"
	"math"
)

// What the generated schemas can carry of each use (Keyword.Carry). Load
// reads it to find the runtime-only checks; schema's lowering writes
// nothing for those, and its tests check that the rules and key
// expressions it writes are the ones said here.

func (structural) Carry(*Use) Carry  { return Carry{} }
func (runtimeOnly) Carry(*Use) Carry { return Carry{} }
func (boolean) Carry(*Use) Carry     { return Carry{} }

// required on a struct value is skipped by validator; on a number the CRD
// says "not zero" with CEL (enum [0] would match 0.5, converted).
func (required) Carry(u *Use) Carry {
	t := u.Type
	if SkipsRequired(t) {
		return Carry{RuntimeOnly: fmt.Sprintf("%q on %s: validator skips required on struct values unless created WithRequiredStructEnabled, so it is enforced at run time only, if at all (use a pointer)", u.Name, t.GoType)}
	}
	k := ValueKind(t)
	return Carry{CRDRule: !t.Nillable() && (k == KindInt || k == KindFloat || k == KindDuration)}
}

// A bound on a time compares with the clock. In CRDs, []byte lengths,
// float equality and non-integer bounds are CEL (the API server compares a
// number with an enum or a bound after converting it to int64). On a map
// key every length bound is a rule over size(k).
func (k bound) Carry(u *Use) Carry {
	kind := ValueKind(u.Type)
	if kind == KindTime {
		return Carry{RuntimeOnly: fmt.Sprintf("%q on a time compares with the current time: enforced by the validator at run time only", u.Name)}
	}
	v, num := u.Value.(float64)
	c := Carry{OnKey: u.Type.Kind == KindString && num && k.op != "eq" && k.op != "ne"}
	switch kind {
	case KindBytes:
		c.CRDRule = true
	case KindFloat:
		c.CRDRule = num && (k.op == "len" || k.op == "eq" || k.op == "ne" || v != math.Trunc(v))
	}
	return c
}

func (k regex) Carry(u *Use) Carry { return Carry{OnKey: u.Type.Kind == KindString} }

func (k oneOf) Carry(u *Use) Carry { return Carry{OnKey: !k.not && u.Type.Kind == KindString} }

// CEL folds ASCII case only.
func (k foldOneOf) Carry(u *Use) Carry {
	vals, _ := u.Value.([]string)
	for _, v := range vals {
		if !isASCII(v) {
			return Carry{RuntimeOnly: fmt.Sprintf("%q with the non-ASCII value %q is enforced by the validator at run time only (CEL folds ASCII case only)", u.Name, v), CRDRule: true}
		}
	}
	return Carry{CRDRule: true}
}

// Only a slice of scalars is a set (x-kubernetes-list-type, uniqueItems).
func (unique) Carry(u *Use) Carry {
	t := u.Type.Deref()
	if t.Kind != KindSlice || u.Param != "" || !isScalar(t.Elem) {
		return Carry{RuntimeOnly: fmt.Sprintf("%q on %s is enforced by the validator at run time only", u.Name, t.GoType)}
	}
	return Carry{}
}

func (k strMatch) Carry(u *Use) Carry {
	return Carry{OnKey: u.Type.Kind == KindString && !k.negated()}
}

func (celFormat) Carry(*Use) Carry    { return Carry{CRDRule: true} }
func (fieldCompare) Carry(*Use) Carry { return Carry{CRDRule: true} }
func (conditional) Carry(*Use) Carry  { return Carry{CRDRule: true} }

// Pattern and NumberRange make a regex keyword a PatternKeyword.
func (k regex) Pattern() string               { return k.pattern }
func (k regex) NumberRange() (lo, hi float64) { return k.lo, k.hi }
func (k celFormat) Formula() string           { return k.rule }
