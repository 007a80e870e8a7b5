package model

import (
	"encoding/json"
	"fmt"
	"strconv"

	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// ApplyContext is what a keyword sees when it adds itself to a schema.
type ApplyContext struct {
	Target Target
	Use    *Use
	// Self is the schema of the value the keyword checks.
	Self *apiext.JSONSchemaProps
	// Parent is the schema of the struct that owns the field (for
	// cross-field rules), Owner its type and Field the field.
	Parent *apiext.JSONSchemaProps
	Owner  *Type
	Field  *Field
	// Diags receives problems found while applying (for example a bound the
	// schema cannot carry).
	Diags *Diagnostics
	// notCarried, set while Load resolves, records a use no schema carries.
	notCarried func(why string)
}

// NotCarried says the schema cannot carry the use: validator enforces it at
// run time only. Load asks every keyword once (model.RuntimeOnly holds the
// answers, and warns); while a backend builds a schema it is a no-op.
func (c *ApplyContext) NotCarried(format string, args ...any) {
	if c.notCarried != nil {
		c.notCarried(fmt.Sprintf(format, args...))
	}
}

// AddPattern adds a regular expression the value must match; a second one
// goes into allOf, since a schema has one pattern.
func (c *ApplyContext) AddPattern(p string) {
	if c.Self.Pattern == "" {
		c.Self.Pattern = p
		return
	}
	c.Self.AllOf = append(c.Self.AllOf, apiext.JSONSchemaProps{Pattern: p})
}

// AddNot adds a schema the value must not match.
func (c *ApplyContext) AddNot(s apiext.JSONSchemaProps) {
	if c.Self.Not == nil {
		c.Self.Not = &s
		return
	}
	c.Self.AllOf = append(c.Self.AllOf, apiext.JSONSchemaProps{Not: &s})
}

// AddRule adds a CEL rule on the value.
func (c *ApplyContext) AddRule(rule, message string) {
	c.Self.XValidations = appendRule(c.Self.XValidations, apiext.ValidationRule{Rule: rule, Message: message})
}

// AddParentRule adds a CEL rule on the owning struct, pointing at the field.
func (c *ApplyContext) AddParentRule(rule, message string) {
	r := apiext.ValidationRule{Rule: rule, Message: message}
	if c.Field != nil && c.Field.JSONName != "" {
		r.FieldPath = CELFieldPath(c.Field.JSONName)
	}
	c.Parent.XValidations = appendRule(c.Parent.XValidations, r)
}

func appendRule(rules apiext.ValidationRules, r apiext.ValidationRule) apiext.ValidationRules {
	for _, have := range rules {
		if have.Rule == r.Rule && have.FieldPath == r.FieldPath {
			return rules
		}
	}
	return append(rules, r)
}

// AddEnum narrows the value to the given JSON values (intersecting an enum
// already there).
func (c *ApplyContext) AddEnum(values []any) {
	var js []apiext.JSON
	for _, v := range values {
		raw, _ := json.Marshal(v)
		js = append(js, apiext.JSON{Raw: raw})
	}
	if len(c.Self.Enum) == 0 {
		c.Self.Enum = js
		return
	}
	c.Self.AllOf = append(c.Self.AllOf, apiext.JSONSchemaProps{Enum: js})
}

// jsonValue converts a parameter to the JSON value of the use's kind.
func jsonValue(t *TypeRef, s string) (any, error) {
	switch valueKind(t) {
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

// celString quotes s as a CEL string literal.
func celString(s string) string {
	return strconv.Quote(s)
}

// celNumber prints a number for CEL so that it has the field's CEL type:
// integers stay integers, numbers (double in CEL) get a decimal point.
func celNumber(t *TypeRef, v float64) string {
	if valueKind(t) == KindFloat {
		s := strconv.FormatFloat(v, 'g', -1, 64)
		for _, r := range s {
			if r == '.' || r == 'e' || r == 'E' || r == 'I' || r == 'N' {
				return s
			}
		}
		return s + ".0"
	}
	return strconv.FormatInt(int64(v), 10)
}

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }
