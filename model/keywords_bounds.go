package model

import (
	"math"
	"strconv"
	"time"
)

// The bound keywords: len, min, max, eq, ne, lt, lte, gt, gte, on lengths
// (runes, items, entries), numbers, durations and times.

// bound: len, min, max, eq, ne, lt, lte, gt, gte. Lengths (in runes for
// strings) on strings, slices and maps; values on numbers.
type bound struct{ op string }

func (k bound) Name() string { return k.op }
func (k bound) Class() Class { return Schema }
func (k bound) Doc() string {
	return map[string]string{
		"len": "length (runes, items, entries) or value equals the parameter",
		"min": "length at least, or value at least", "max": "length at most, or value at most",
		"eq": "string equals the text; length or value equals the parameter", "ne": "the opposite of eq",
		"lt": "length or value below", "lte": "length or value at most", "gt": "length or value above", "gte": "length or value at least",
	}[k.op]
}
func (k bound) Schema() string {
	return map[string]string{
		"len": "`minLength`+`maxLength`, `minItems`+`maxItems`, `minProperties`+`maxProperties`; numbers `enum`",
		"min": "`minLength`, `minItems`, `minProperties`, `minimum`", "max": "`maxLength`, `maxItems`, `maxProperties`, `maximum`",
		"eq": "strings `enum: [p]`; lengths as len; numbers `enum`", "ne": "`not` of eq",
		"lt": "length: max p-1; numbers `maximum` + `exclusiveMaximum`", "lte": "as max",
		"gt": "length: min p+1; numbers `minimum` + `exclusiveMinimum`", "gte": "as min",
	}[k.op] + "; non-integer number bounds also get a CEL rule in CRDs (and are inclusive there), float equality is CEL in CRDs; `[]byte` lengths are CEL `size(self)` (decoded bytes)"
}

func (k bound) Resolve(u *Use) (any, error) {
	ok := sizedKinds
	if k.op == "eq" || k.op == "ne" {
		ok |= kindSet(KindBool)
	}
	if err := checkKind(u, ok); err != nil {
		return nil, err
	}
	switch ValueKind(u.Type) {
	case KindTime:
		if u.Param != "" {
			return nil, errorf("%q on a time takes no parameter (it compares with the current time)", u.Name)
		}
		if !isStdTime(u.Type) {
			return nil, errorf("%q on %s: validator compares only time.Time with the clock and panics on other time types", u.Name, u.Type.Deref().GoType)
		}
		if k.op == "len" || k.op == "eq" || k.op == "ne" {
			return nil, errorf("%q on a time panics in validator: only gt, gte, lt, lte, min and max compare times", u.Name)
		}
		return nil, nil
	case KindString:
		if k.op == "eq" || k.op == "ne" {
			return u.Param, nil
		}
		return lengthParam(u)
	case KindSlice, KindMap, KindBytes:
		v, err := lengthParam(u)
		if err == nil && ValueKind(u.Type) == KindSlice && u.Type.Deref().Len >= 0 {
			err = k.arrayLength(u, v.(float64))
		}
		return v, err
	case KindBool:
		return strconv.ParseBool(u.Param)
	case KindDuration:
		if d, err := time.ParseDuration(u.Param); err == nil {
			return float64(d), nil
		}
		n, err := strconv.ParseInt(u.Param, 10, 64)
		if err != nil {
			return nil, errorf("%q needs a duration such as 1h30m, not %q", u.Name, u.Param)
		}
		return float64(n), nil
	case KindInt:
		return intParam(u)
	default:
		f, err := strconv.ParseFloat(u.Param, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, errorf("%q needs a number, not %q", u.Name, u.Param)
		}
		return f, nil
	}
}

// isStdTime reports time.Time: validator converts only types convertible
// to time.Time, which metav1.Time (a struct embedding one) is not.
func isStdTime(t *TypeRef) bool {
	t = t.Deref()
	return t != nil && t.ImportPath == "time" && t.TypeName == "Time"
}

// arrayLength judges a length keyword on a Go array [N]T, whose length is
// N whatever the JSON holds (encoding/json zero-fills a short array and
// drops the items past N): the keyword always holds, and the schemas carry
// nothing for it, or it never does, which is an error.
func (k bound) arrayLength(u *Use, v float64) error {
	n := float64(u.Type.Deref().Len)
	holds := map[string]bool{"len": n == v, "eq": n == v, "ne": n != v, "min": n >= v, "gte": n >= v, "gt": n > v, "max": n <= v, "lte": n <= v, "lt": n < v}[k.op]
	if !holds {
		return errorf("%s=%s on the Go array %s never holds: its length is always %d (encoding/json zero-fills a short JSON array and drops the items past it); remove it or use a slice", u.Name, u.Param, u.Type.Deref().GoType, int(n))
	}
	return nil
}

func lengthParam(u *Use) (any, error) {
	n, err := strconv.ParseInt(u.Param, 10, 64)
	if err != nil || n < 0 {
		return nil, errorf("%q on a %s needs a non-negative integer length, not %q", u.Name, ValueKind(u.Type), u.Param)
	}
	if u.Name == "lt" && n == 0 {
		return nil, errorf("lt=0 on a length can never hold")
	}
	return float64(n), nil
}

func intParam(u *Use) (any, error) {
	t := u.Type.Deref()
	bits := t.Bits
	if bits == 0 {
		bits = 64
	}
	if t.Unsigned {
		n, err := strconv.ParseUint(u.Param, 0, bits)
		if err != nil {
			return nil, errorf("%q on %s needs an unsigned integer that fits in %d bits, not %q", u.Name, t.GoType, bits, u.Param)
		}
		return float64(n), nil
	}
	n, err := strconv.ParseInt(u.Param, 0, bits)
	if err != nil {
		return nil, errorf("%q on %s needs an integer that fits in %d bits, not %q", u.Name, t.GoType, bits, u.Param)
	}
	return float64(n), nil
}

// beyondInt64 reports an integer bound of magnitude 2^63 or more: the API
// server stores integers as int64, and refuses such a bound in a CRD (its
// range check parses the float bound as an int64), -2^63 included.
func BeyondInt64(t *TypeRef, v float64) bool {
	return ValueKind(t) == KindInt && math.Abs(v) >= 1<<63
}
