package model

import (
	"regexp"
	"strings"
)

// Keywords on sets of values: oneof and noneof (and their case-folding
// forms), unique, boolean.

// oneOf: oneof and noneof, with validator's quoting ('a b' is one value).
type oneOf struct {
	name string
	not  bool
}

var splitParams = regexp.MustCompile(`'[^']*'|\S+`)

// SplitOneOf splits a oneof parameter the way validator does.
func SplitOneOf(param string) []string {
	vals := splitParams.FindAllString(param, -1)
	for i, v := range vals {
		vals[i] = strings.ReplaceAll(v, "'", "")
	}
	return vals
}

func (k oneOf) Name() string { return k.name }
func (k oneOf) Class() Class { return Schema }
func (k oneOf) Doc() string {
	if k.not {
		return "the value is none of the space-separated values"
	}
	return "the value is one of the space-separated values ('a b' quotes a space)"
}
func (k oneOf) Schema() string {
	if k.not {
		return "`not: {enum: [...]}`"
	}
	return "`enum`"
}
func (k oneOf) Resolve(u *Use) (any, error) {
	if err := checkKind(u, strKinds|kindSet(KindInt)); err != nil {
		return nil, err
	}
	var out []any
	for _, v := range SplitOneOf(u.Param) {
		jv, err := JSONValue(u.Type, v)
		if err != nil {
			return nil, errorf("%q value %q is not a valid %s", u.Name, v, u.Type.Deref().GoType)
		}
		out = append(out, jv)
	}
	if len(out) == 0 && !k.not {
		return nil, errorf("%q needs at least one value", u.Name)
	}
	return out, nil
}

// foldOneOf: oneofci and noneofci, compared without case.
type foldOneOf struct {
	name string
	not  bool
}

func (k foldOneOf) Name() string { return k.name }
func (k foldOneOf) Class() Class { return CEL }
func (k foldOneOf) Doc() string  { return "as " + strings.TrimSuffix(k.name, "ci") + ", ignoring case" }
func (k foldOneOf) Schema() string {
	return "CEL `self.lowerAscii() in [...]`, with the Kelvin sign and the long s folded as `strings.EqualFold` does; non-ASCII values run time only"
}
func (k foldOneOf) Resolve(u *Use) (any, error) {
	if err := checkKind(u, strKinds); err != nil {
		return nil, err
	}
	return SplitOneOf(u.Param), nil
}
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// unique: no two elements are equal.
type unique struct{}

func (unique) Name() string { return "unique" }
func (unique) Class() Class { return Schema }
func (unique) Doc() string  { return "no two slice elements (or map values) are equal" }
func (unique) Schema() string {
	return "scalar slices: CRD `x-kubernetes-list-type: set`, OpenAPI `uniqueItems: true`; other forms runtime only"
}
func (unique) Resolve(u *Use) (any, error) {
	if err := checkKind(u, kindSet(KindSlice, KindMap)); err != nil {
		return nil, err
	}
	return nil, nil
}
func isScalar(t *TypeRef) bool {
	switch t.Kind {
	case KindString, KindInt, KindFloat, KindBool:
		return true
	}
	return false
}

// boolean: the string parses as a Go bool.
type boolean struct{}

func (boolean) Name() string { return "boolean" }
func (boolean) Class() Class { return Schema }
func (boolean) Doc() string  { return "a string strconv.ParseBool accepts (bools always pass)" }
func (boolean) Schema() string {
	return "`enum` of 1, t, T, TRUE, true, True, 0, f, F, FALSE, false, False"
}
func (boolean) Resolve(u *Use) (any, error) {
	return nil, checkKind(u, kindSet(KindString, KindBool))
}
