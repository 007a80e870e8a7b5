package schema

import (
	"encoding/json"
	"strconv"
	"sync"

	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/modelgen/modelgen/model"
)

// The lowering: how each validate keyword the model resolved lays itself
// over an apiextensions schema. model owns the keyword (its name, class,
// parameter, the diagnostics of Load, and whether a schema can carry a use
// at all: model.Carry); this file and lower_*.go own what it writes. The
// table lowerings is keyed by keyword name and holds every keyword of
// class Schema and CEL; a keyword without a lowering is an error at the
// use, never nothing (TestEveryKeywordLowers audits the table).

// applyContext is what a keyword's lowering sees.
type applyContext struct {
	Target model.Target
	Use    *model.Use
	// Self is the schema of the value the keyword checks.
	Self *apiext.JSONSchemaProps
	// Parent is the schema of the struct that owns the field (for
	// cross-field rules), Owner its type and Field the field.
	Parent *apiext.JSONSchemaProps
	Owner  *model.Type
	Field  *model.Field
	// Diags receives problems found while lowering.
	Diags *model.Diagnostics
}

// lowering lays one use over the schemas of its context.
type lowering func(c *applyContext)

// lowerings is the table: every keyword of class Schema or CEL by name,
// built on first use (it reads the model's keyword registry, which is
// built on first use too).
var lowerings = sync.OnceValue(lowerTable)

func lowerTable() map[string]lowering {
	t := map[string]lowering{
		"required": lowerRequired,
		"unique":   lowerUnique,
		"boolean":  lowerBoolean,
		"oneof":    lowerOneOf(false), "noneof": lowerOneOf(true),
		"oneofci": lowerFoldOneOf(false), "noneofci": lowerFoldOneOf(true),
	}
	for _, op := range model.BoundKeywords {
		t[op] = lowerBound(op)
	}
	for _, name := range model.StrMatchKeywords {
		t[name] = lowerStrMatch(name)
	}
	for _, op := range model.FieldCompareKeywords {
		t[op] = lowerFieldCompare(op)
	}
	for _, name := range model.ConditionalKeywords {
		t[name] = lowerConditional(name)
	}
	// the keywords whose definition is validator's regular expression or a
	// CEL formula of the API server's libraries: the model holds the text
	// (the tag table prints it), the lowering places it
	for _, k := range model.Keywords() {
		switch k := k.(type) {
		case model.PatternKeyword:
			t[k.Name()] = lowerPattern(k)
		case model.FormulaKeyword:
			t[k.Name()] = lowerFormula(k)
		}
	}
	return t
}

// HasLowering reports whether schemas carry the keyword of that name (every
// keyword of class Schema and CEL has a lowering).
func HasLowering(name string) bool {
	_, ok := lowerings()[name]
	return ok
}

// lower lays one use over its context's schemas. A use the model found no
// schema can carry (model.Carry.RuntimeOnly) writes nothing: Load warned
// at it, and the webhook enforces it.
func lower(c *applyContext) {
	u := c.Use
	switch u.Keyword.Class() {
	case model.Schema, model.CEL:
	default:
		return
	}
	if u.Keyword.Carry(u).RuntimeOnly != "" {
		return
	}
	l, ok := lowerings()[u.Keyword.Name()]
	if !ok {
		c.Diags.Errorf(u.Pos, "validate: %q has no lowering to a schema (a modelgen bug: every schema or CEL keyword needs one)", u.Name)
		return
	}
	l(c)
}

// LowerUse lays one use alone over empty schemas for the target: self is
// the value's, parent the owning struct's. The agreement harness reads
// what each keyword writes with it.
func LowerUse(u *model.Use, target model.Target) (self, parent apiext.JSONSchemaProps, diags model.Diagnostics) {
	lower(&applyContext{Target: target, Use: u, Self: &self, Parent: &parent, Owner: u.Owner, Field: u.Field, Diags: &diags})
	return self, parent, diags
}

// AddPattern adds a regular expression the value must match; a second one
// goes into allOf, since a schema has one pattern.
func (c *applyContext) AddPattern(p string) {
	if c.Self.Pattern == "" {
		c.Self.Pattern = p
		return
	}
	c.Self.AllOf = append(c.Self.AllOf, apiext.JSONSchemaProps{Pattern: p})
}

// AddNot adds a schema the value must not match.
func (c *applyContext) AddNot(s apiext.JSONSchemaProps) {
	if c.Self.Not == nil {
		c.Self.Not = &s
		return
	}
	c.Self.AllOf = append(c.Self.AllOf, apiext.JSONSchemaProps{Not: &s})
}

// AddRule adds a CEL rule on the value.
func (c *applyContext) AddRule(rule, message string) {
	c.Self.XValidations = appendRule(c.Self.XValidations, apiext.ValidationRule{Rule: rule, Message: message})
}

// AddParentRule adds a CEL rule on the owning struct, pointing at the field.
func (c *applyContext) AddParentRule(rule, message string) {
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
func (c *applyContext) AddEnum(values []any) {
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

// celQuote quotes s as a CEL string literal.
func celQuote(s string) string {
	return strconv.Quote(s)
}

// celNumber prints a number for CEL so that it has the field's CEL type:
// integers stay integers, numbers (double in CEL) get a decimal point.
func celNumber(t *model.TypeRef, v float64) string {
	if model.ValueKind(t) == model.KindFloat {
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

// jsonMarshal prints a parameter's JSON value.
func jsonMarshal(v any) ([]byte, error) {
	switch x := v.(type) {
	case string:
		return json.Marshal(x)
	case bool:
		return []byte(strconv.FormatBool(x)), nil
	case int64:
		return []byte(strconv.FormatInt(x, 10)), nil
	case uint64:
		return []byte(strconv.FormatUint(x, 10)), nil
	case float64:
		return []byte(strconv.FormatFloat(x, 'g', -1, 64)), nil
	}
	return []byte("null"), nil
}
