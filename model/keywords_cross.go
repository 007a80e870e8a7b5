package model

import (
	"strings"
)

// Cross-field keywords compare a field with other fields of the same
// struct; the schemas carry them as CEL rules on that struct (schema's
// lower_cross.go). Resolving one finds the fields it names and refuses a
// name no rule can read.

// sibling finds the field a cross-field parameter names.
func sibling(u *Use, name string) (*Field, error) {
	if u.Dived {
		return nil, errorf("%q cannot be used after dive", u.Name)
	}
	if strings.Contains(name, ".") {
		return nil, errorf("%q: only fields of the same struct are supported, not %q", u.Name, name)
	}
	f := u.Owner.Field(name)
	if f == nil {
		return nil, errorf("%q: %s has no field %q", u.Name, u.Owner.Name, name)
	}
	if f.JSONName == "" || f.Skip {
		return nil, errorf("%q: field %s has no JSON name, so no rule can read it", u.Name, name)
	}
	if !CELReadable(f.JSONName) {
		return nil, errorf("%q reads field %s: %s", u.Name, name, CELUnreadable(f.JSONName))
	}
	return f, nil
}

// readableSelf checks that the rule a cross-field keyword puts on the
// parent can read the field that carries it.
func readableSelf(u *Use) error {
	if u.Field != nil && u.Field.JSONName != "" && !CELReadable(u.Field.JSONName) {
		return errorf("%q on field %s: %s", u.Name, u.Field.GoName, CELUnreadable(u.Field.JSONName))
	}
	return nil
}

// fieldCompare: eqfield, nefield, gtfield, gtefield, ltfield, ltefield.
type fieldCompare struct{ op string }

var compareOps = map[string]string{"eqfield": "==", "nefield": "!=", "gtfield": ">", "gtefield": ">=", "ltfield": "<", "ltefield": "<="}

func (k fieldCompare) Name() string { return k.op }
func (k fieldCompare) Class() Class { return CEL }
func (k fieldCompare) Doc() string {
	return "the value " + compareOps[k.op] + " the named field of the same struct"
}
func (k fieldCompare) Schema() string {
	return "CEL on the parent: `self.a " + compareOps[k.op] + " self.b`"
}
func (k fieldCompare) Resolve(u *Use) (any, error) {
	ok := scalarKinds | kindSet(KindTime)
	if k.op != "eqfield" && k.op != "nefield" {
		ok = numKinds | kindSet(KindTime, KindString)
	}
	if err := checkKind(u, ok); err != nil {
		return nil, err
	}
	if err := readableSelf(u); err != nil {
		return nil, err
	}
	f, err := sibling(u, u.Param)
	if err != nil {
		return nil, err
	}
	if ValueKind(f.Type) != ValueKind(u.Type) {
		return nil, errorf("%q compares %s with %s.%s, which is %s", u.Name, u.Type.GoType, u.Owner.Name, f.GoName, f.Type.GoType)
	}
	if ValueKind(u.Type) == KindTime && (!isStdTime(u.Type) || !isStdTime(f.Type)) {
		return nil, errorf("%q on %s: validator compares only time.Time values (on other time types it compares their printed form, which never differs)", u.Name, u.Type.Deref().GoType)
	}
	return f, nil
}

// conditional: required_if/unless/with/without(_all), excluded_*.
type conditional struct{ name string }

func (k conditional) Name() string { return k.name }
func (k conditional) Class() Class { return CEL }
func (k conditional) Doc() string {
	verb := "required"
	if strings.HasPrefix(k.name, "excluded") {
		verb = "absent (zero)"
	}
	switch strings.TrimPrefix(strings.TrimPrefix(k.name, "required_"), "excluded_") {
	case "if":
		return verb + " when all the named fields have the given values"
	case "unless":
		return verb + " unless all the named fields have the given values"
	case "with":
		return verb + " when any of the named fields is present"
	case "with_all":
		return verb + " when all of the named fields are present"
	case "without":
		return verb + " when any of the named fields is absent"
	}
	return verb + " when all of the named fields are absent"
}
func (k conditional) Schema() string { return "CEL on the parent, with `has()` guards" }

// Condition is one field a conditional keyword (required_if...) names: the
// use's value is a []Condition.
type Condition struct {
	Field *Field
	Value string // for _if and _unless
}

func (k conditional) Resolve(u *Use) (any, error) {
	// validator splits every conditional parameter as oneof's
	// (parseOneOfParam2): 'a b' is one word, and quotes are dropped
	words := SplitOneOf(u.Param)
	paired := strings.HasSuffix(k.name, "_if") || strings.HasSuffix(k.name, "_unless")
	if len(words) == 0 || paired && len(words)%2 != 0 {
		if paired {
			return nil, errorf("%q needs pairs of field name and value, not %q", u.Name, u.Param)
		}
		return nil, errorf("%q needs one or more field names", u.Name)
	}
	if err := readableSelf(u); err != nil {
		return nil, err
	}
	var conds []Condition
	step := 1
	if paired {
		step = 2
	}
	for i := 0; i < len(words); i += step {
		f, err := sibling(u, words[i])
		if err != nil {
			return nil, err
		}
		c := Condition{Field: f}
		if paired {
			c.Value = words[i+1]
			if _, err := JSONValue(f.Type.Deref(), c.Value); err != nil || !isScalar(f.Type.Deref()) {
				return nil, errorf("%q: %q is not a value of field %s (%s)", u.Name, c.Value, f.GoName, f.Type.GoType)
			}
		}
		conds = append(conds, c)
	}
	return conds, nil
}
