package model

import (
	"strings"
)

// Cross-field keywords become CEL rules on the struct that holds the field,
// with Go field names mapped to JSON names. A field that may be absent is
// read as its zero value, as validator sees it after json.Unmarshal:
// (has(self.f) ? self.f : '').

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

// celValue reads a field as validator sees it: its zero value when absent.
func celValue(f *Field) string {
	ref := celSelf(f.JSONName)
	zero := celZero(f.Type)
	if zero == "" {
		return ref
	}
	return "(has(" + ref + ") ? " + ref + " : " + zero + ")"
}

func celZero(t *TypeRef) string {
	switch t.Kind {
	case KindString:
		return "''"
	case KindInt, KindDuration:
		return "0"
	case KindFloat:
		return "0.0"
	case KindBool:
		return "false"
	case KindTime:
		// a date-time string is a CEL timestamp; validator reads a
		// missing time.Time as the zero time
		return "timestamp('0001-01-01T00:00:00Z')"
	}
	return ""
}

// celHasValue is validator's "has a value": non-zero, or non-nil for
// nillable kinds.
func celHasValue(f *Field) string {
	ref := celSelf(f.JSONName)
	has := "has(" + ref + ")"
	if f.Type.Nillable() {
		return has
	}
	if nz, ok := CELNonZero(ref, f.Type); ok && nz != "true" {
		return "(" + has + " && " + nz + ")"
	}
	return has
}

// CELNonZero is a CEL expression that holds when the value at ref (known to
// be present) is not its Go zero value, as reflect's IsZero reads it: a
// struct of the model is zero when none of its fields holds a value. It
// reports false for a type no expression can read (a library struct).
func CELNonZero(ref string, t *TypeRef) (string, bool) {
	return celNonZero(ref, t, 0)
}

func celNonZero(ref string, t *TypeRef, depth int) (string, bool) {
	if t.Nillable() {
		return "true", true
	}
	if z := celZero(t); z != "" {
		return ref + " != " + z, true
	}
	if t.Kind != KindStruct || t.Named == nil || depth > 8 {
		return "", false
	}
	var terms []string
	for _, f := range t.Named.Fields {
		if f.Skip {
			continue // never set from JSON: always zero
		}
		if f.Inline || f.JSONName == "" {
			inner, ok := celNonZero(ref, f.Type, depth+1)
			if !ok {
				return "", false
			}
			terms = append(terms, inner)
			continue
		}
		sub, ok := CELField(ref, f.JSONName)
		if !ok {
			return "", false
		}
		inner, ok := celNonZero(sub, f.Type, depth+1)
		if !ok {
			return "", false
		}
		terms = append(terms, "(has("+sub+") && "+inner+")")
	}
	if len(terms) == 0 {
		return "false", true
	}
	return "(" + strings.Join(terms, " || ") + ")", true
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
	if valueKind(f.Type) != valueKind(u.Type) {
		return nil, errorf("%q compares %s with %s.%s, which is %s", u.Name, u.Type.GoType, u.Owner.Name, f.GoName, f.Type.GoType)
	}
	if valueKind(u.Type) == KindTime && (!isStdTime(u.Type) || !isStdTime(f.Type)) {
		return nil, errorf("%q on %s: validator compares only time.Time values (on other time types it compares their printed form, which never differs)", u.Name, u.Type.Deref().GoType)
	}
	return f, nil
}
func (k fieldCompare) Apply(c *ApplyContext) {
	other := c.Use.Value.(*Field)
	a, b := celValue(c.Field), celValue(other)
	switch valueKind(c.Field.Type) {
	case KindString:
		if k.op != "eqfield" && k.op != "nefield" {
			a, b = "size("+a+")", "size("+b+")"
		}
	}
	rule := a + " " + compareOps[k.op] + " " + b
	// validator fails a comparison with a nil pointer (so nefield holds)
	for _, f := range []*Field{other, c.Field} {
		if f.Type.Kind != KindPointer {
			continue
		}
		if k.op == "nefield" {
			rule = "!has(" + celSelf(f.JSONName) + ") || " + rule
		} else {
			rule = "has(" + celSelf(f.JSONName) + ") && " + rule
		}
	}
	c.AddParentRule(rule, c.Field.JSONName+" must be "+compareOps[k.op]+" "+other.JSONName)
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

type condition struct {
	field *Field
	value string // for _if and _unless
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
	var conds []condition
	step := 1
	if paired {
		step = 2
	}
	for i := 0; i < len(words); i += step {
		f, err := sibling(u, words[i])
		if err != nil {
			return nil, err
		}
		c := condition{field: f}
		if paired {
			c.value = words[i+1]
			if _, err := jsonValue(f.Type.Deref(), c.value); err != nil || !isScalar(f.Type.Deref()) {
				return nil, errorf("%q: %q is not a value of field %s (%s)", u.Name, c.value, f.GoName, f.Type.GoType)
			}
		}
		conds = append(conds, c)
	}
	return conds, nil
}

func (k conditional) Apply(c *ApplyContext) {
	conds := c.Use.Value.([]condition)
	var terms []string
	join := " && "
	for _, cd := range conds {
		switch {
		case strings.HasSuffix(k.name, "_if") || strings.HasSuffix(k.name, "_unless"):
			v, _ := jsonValue(cd.field.Type.Deref(), cd.value)
			lit := celLiteral(v)
			term := celValue(cd.field) + " == " + lit
			if cd.field.Type.Kind == KindPointer {
				// a nil pointer never equals the value
				term = "(has(" + celSelf(cd.field.JSONName) + ") && " + term + ")"
			}
			terms = append(terms, term)
		case strings.HasSuffix(k.name, "without") || strings.HasSuffix(k.name, "without_all"):
			terms = append(terms, "!"+celHasValue(cd.field))
		default:
			terms = append(terms, celHasValue(cd.field))
		}
	}
	if strings.HasSuffix(k.name, "_with") || strings.HasSuffix(k.name, "_without") {
		join = " || "
	}
	cond := "(" + strings.Join(terms, join) + ")"
	if strings.HasSuffix(k.name, "_unless") {
		cond = "!" + cond
	}
	has := celHasValue(c.Field)
	if strings.HasPrefix(k.name, "required") {
		c.AddParentRule("!"+cond+" || "+has, c.Field.JSONName+" is required ("+k.name+"="+c.Use.Param+")")
		return
	}
	c.AddParentRule("!"+cond+" || !"+has, c.Field.JSONName+" must be absent ("+k.name+"="+c.Use.Param+")")
}

func celLiteral(v any) string {
	switch x := v.(type) {
	case string:
		return celString(x)
	case float64:
		return celNumber(&TypeRef{Kind: KindFloat}, x)
	}
	b, _ := jsonMarshal(v)
	return string(b)
}
