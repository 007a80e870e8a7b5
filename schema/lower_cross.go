package schema

import (
	"strings"

	"github.com/modelgen/modelgen/model"
)

// Cross-field keywords become CEL rules on the struct that holds the field,
// with Go field names mapped to JSON names. A field that may be absent is
// read as its zero value, as validator sees it after json.Unmarshal:
// (has(self.f) ? self.f : ''). The model resolved the fields they name
// (model/keywords_cross.go) and refused those no rule can read.

// celValue reads a field as validator sees it: its zero value when absent.
func celValue(f *model.Field) string {
	ref := selfProp(f.JSONName)
	zero := celZero(f.Type)
	if zero == "" {
		return ref
	}
	return "(has(" + ref + ") ? " + ref + " : " + zero + ")"
}

func celZero(t *model.TypeRef) string {
	if t.Kind == model.KindSlice || t.Kind == model.KindMap {
		return "" // compared by size, not with a literal
	}
	return zeroLiteral(t)
}

// celHasValue is validator's "has a value": non-zero, or non-nil for
// nillable kinds.
func celHasValue(f *model.Field) string {
	ref := selfProp(f.JSONName)
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
func CELNonZero(ref string, t *model.TypeRef) (string, bool) {
	return celNonZero(ref, t, 0)
}

func celNonZero(ref string, t *model.TypeRef, depth int) (string, bool) {
	if t.Nillable() {
		return "true", true
	}
	if z := celZero(t); z != "" {
		return ref + " != " + z, true
	}
	if t.Kind != model.KindStruct || t.Named == nil || depth > 8 {
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

var compareOps = map[string]string{"eqfield": "==", "nefield": "!=", "gtfield": ">", "gtefield": ">=", "ltfield": "<", "ltefield": "<="}

// lowerFieldCompare: eqfield, nefield, gtfield, gtefield, ltfield,
// ltefield (the use's value is the other field).
func lowerFieldCompare(op string) lowering {
	return func(c *applyContext) {
		other := c.Use.Value.(*model.Field)
		a, b := celValue(c.Field), celValue(other)
		switch model.ValueKind(c.Field.Type) {
		case model.KindString:
			if op != "eqfield" && op != "nefield" {
				a, b = "size("+a+")", "size("+b+")"
			}
		}
		rule := a + " " + compareOps[op] + " " + b
		// validator fails a comparison with a nil pointer (so nefield holds)
		for _, f := range []*model.Field{other, c.Field} {
			if f.Type.Kind != model.KindPointer {
				continue
			}
			if op == "nefield" {
				rule = "!has(" + selfProp(f.JSONName) + ") || " + rule
			} else {
				rule = "has(" + selfProp(f.JSONName) + ") && " + rule
			}
		}
		c.AddParentRule(rule, c.Field.JSONName+" must be "+compareOps[op]+" "+other.JSONName)
	}
}

// lowerConditional: required_if/unless/with/without(_all), excluded_*
// (the use's value is the conditions).
func lowerConditional(name string) lowering {
	return func(c *applyContext) {
		conds := c.Use.Value.([]model.Condition)
		var terms []string
		join := " && "
		for _, cd := range conds {
			switch {
			case strings.HasSuffix(name, "_if") || strings.HasSuffix(name, "_unless"):
				v, _ := model.JSONValue(cd.Field.Type.Deref(), cd.Value)
				lit := celLiteral(v)
				term := celValue(cd.Field) + " == " + lit
				if cd.Field.Type.Kind == model.KindPointer {
					// a nil pointer never equals the value
					term = "(has(" + selfProp(cd.Field.JSONName) + ") && " + term + ")"
				}
				terms = append(terms, term)
			case strings.HasSuffix(name, "without") || strings.HasSuffix(name, "without_all"):
				terms = append(terms, "!"+celHasValue(cd.Field))
			default:
				terms = append(terms, celHasValue(cd.Field))
			}
		}
		if strings.HasSuffix(name, "_with") || strings.HasSuffix(name, "_without") {
			join = " || "
		}
		cond := "(" + strings.Join(terms, join) + ")"
		if strings.HasSuffix(name, "_unless") {
			cond = "!" + cond
		}
		has := celHasValue(c.Field)
		if strings.HasPrefix(name, "required") {
			c.AddParentRule("!"+cond+" || "+has, c.Field.JSONName+" is required ("+name+"="+c.Use.Param+")")
			return
		}
		c.AddParentRule("!"+cond+" || !"+has, c.Field.JSONName+" must be absent ("+name+"="+c.Use.Param+")")
	}
}

func celLiteral(v any) string {
	switch x := v.(type) {
	case string:
		return celQuote(x)
	case float64:
		return celNumber(&model.TypeRef{Kind: model.KindFloat}, x)
	}
	b, _ := jsonMarshal(v)
	return string(b)
}
