package schema

import (
	"math"
	"regexp"
	"strconv"
	"strings"

	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/modelgen/modelgen/model"
)

// The lowerings of validator's single-value keywords (model's
// keywords_*.go define and resolve them).

// lowerRequired: the value is not the zero value (slices, maps and
// pointers: not nil). A struct value validator skips is runtime only
// (model.SkipsRequired), and never reaches here.
func lowerRequired(c *applyContext) {
	t := c.Use.Type
	if c.Parent != nil && c.Field != nil && c.Field.JSONName != "" && t.Kind != model.KindStruct {
		if !contains(c.Parent.Required, c.Field.JSONName) {
			c.Parent.Required = append(c.Parent.Required, c.Field.JSONName)
		}
	}
	if t.Nillable() {
		return
	}
	switch model.ValueKind(t) {
	case model.KindString:
		if c.Self.MinLength == nil || *c.Self.MinLength < 1 {
			one := int64(1)
			c.Self.MinLength = &one
		}
	case model.KindInt, model.KindFloat, model.KindDuration:
		if c.Target == model.TargetCRD {
			c.AddRule("self != "+celNumber(t, 0), "must not be zero")
		} else {
			c.AddNot(apiext.JSONSchemaProps{Enum: []apiext.JSON{{Raw: []byte("0")}}})
		}
	case model.KindBool:
		c.AddEnum([]any{true})
	}
}

// lowerBound: len, min, max, eq, ne, lt, lte, gt, gte. Lengths (in runes
// for strings) on strings, slices and maps; values on numbers. A bound on a
// time compares with the clock: runtime only, it never reaches here.
func lowerBound(op string) lowering {
	k := bound{op}
	return k.apply
}

type bound struct{ op string }

func (k bound) apply(c *applyContext) {
	u := c.Use
	switch model.ValueKind(u.Type) {
	case model.KindTime:
		return // runtime only (model.Carry)
	case model.KindString:
		if k.op == "eq" || k.op == "ne" {
			k.applyEquals(c, u.Value)
			return
		}
		k.applyLength(c, &c.Self.MinLength, &c.Self.MaxLength)
	case model.KindBytes:
		k.applyByteLength(c)
	case model.KindSlice:
		if u.Type.Deref().Len >= 0 {
			return // a Go array's length is constant: it holds (the model checked)
		}
		k.applyLength(c, &c.Self.MinItems, &c.Self.MaxItems)
	case model.KindMap:
		k.applyLength(c, &c.Self.MinProperties, &c.Self.MaxProperties)
	case model.KindBool:
		k.applyEquals(c, u.Value)
	default:
		k.applyNumber(c, u.Value.(float64))
	}
}

func (k bound) applyEquals(c *applyContext, v any) {
	if k.op == "eq" {
		c.AddEnum([]any{v})
		return
	}
	raw, _ := jsonMarshal(v)
	c.AddNot(apiext.JSONSchemaProps{Enum: []apiext.JSON{{Raw: raw}}})
}

func (k bound) applyLength(c *applyContext, lo, hi **int64) {
	n := int64(c.Use.Value.(float64))
	setMin := func(v int64) {
		if *lo == nil || **lo < v {
			*lo = &v
		}
	}
	setMax := func(v int64) {
		if *hi == nil || **hi > v {
			*hi = &v
		}
	}
	switch k.op {
	case "len", "eq":
		setMin(n)
		setMax(n)
	case "min", "gte":
		setMin(n)
	case "max", "lte":
		setMax(n)
	case "gt":
		setMin(n + 1)
	case "lt":
		setMax(n - 1)
	case "ne":
		c.AddNot(lengthSchema(c, n))
	}
}

// applyByteLength bounds the decoded length of a []byte. Its JSON form is
// base64 text, whose length no schema keyword can tie to the decoded one;
// a format: byte string is bytes to the API server's CEL, so size(self)
// counts the decoded bytes.
func (k bound) applyByteLength(c *applyContext) {
	n := strconv.FormatInt(int64(c.Use.Value.(float64)), 10)
	cmp := map[string]string{"len": "==", "eq": "==", "ne": "!=", "min": ">=", "gte": ">=", "gt": ">", "max": "<=", "lte": "<=", "lt": "<"}[k.op]
	c.AddRule("size(self) "+cmp+" "+n, "must be "+cmp+" "+n+" bytes long")
}

func lengthSchema(c *applyContext, n int64) apiext.JSONSchemaProps {
	switch model.ValueKind(c.Use.Type) {
	case model.KindString:
		return apiext.JSONSchemaProps{MinLength: &n, MaxLength: &n}
	case model.KindMap:
		return apiext.JSONSchemaProps{MinProperties: &n, MaxProperties: &n}
	}
	return apiext.JSONSchemaProps{MinItems: &n, MaxItems: &n}
}

func (k bound) applyNumber(c *applyContext, v float64) {
	t := c.Use.Type
	if model.BeyondInt64(t, v) && (c.Target == model.TargetCRD || k.op == "ne") {
		// every integer the API server stores (an int64) meets it: see
		// the resolver's int64Range check
		return
	}
	if c.Target == model.TargetCRD && model.ValueKind(t) == model.KindFloat && (k.op == "len" || k.op == "eq" || k.op == "ne") {
		// the API server checks an enum by converting the value to the
		// enum's type: 2.5 becomes int64 2 and matches enum [2]
		cmp := map[string]string{"len": "==", "eq": "==", "ne": "!="}[k.op]
		c.AddRule("self "+cmp+" "+celNumber(t, v), "must be "+cmp+" "+strconv.FormatFloat(v, 'g', -1, 64))
		return
	}
	switch k.op {
	case "len", "eq":
		c.AddEnum([]any{jsonNumber(t, v)})
		return
	case "ne":
		raw, _ := jsonMarshal(jsonNumber(t, v))
		c.AddNot(apiext.JSONSchemaProps{Enum: []apiext.JSON{{Raw: raw}}})
		return
	}
	// The API server compares an integral JSON value with int64(bound),
	// truncated toward zero: an exclusive non-integer bound such as lt=1.5
	// would refuse 1. Inclusive, such a bound only ever lets too much
	// through, and the CEL rule below is exact.
	exclusive := c.Target != model.TargetCRD || v == math.Trunc(v)
	switch k.op {
	case "min", "gte":
		setBound(&c.Self.Minimum, &c.Self.ExclusiveMinimum, v, false, true)
	case "gt":
		setBound(&c.Self.Minimum, &c.Self.ExclusiveMinimum, v, exclusive, true)
	case "max", "lte":
		setBound(&c.Self.Maximum, &c.Self.ExclusiveMaximum, v, false, false)
	case "lt":
		setBound(&c.Self.Maximum, &c.Self.ExclusiveMaximum, v, exclusive, false)
	}
	if c.Target == model.TargetCRD && v != math.Trunc(v) {
		// The API server compares an integral JSON value with
		// int64(minimum): minimum 0.01 lets 0 through. CEL compares exactly.
		cmp := map[string]string{"min": ">=", "gte": ">=", "gt": ">", "max": "<=", "lte": "<=", "lt": "<"}[k.op]
		c.AddRule("self "+cmp+" "+celNumber(t, v), "must be "+cmp+" "+strconv.FormatFloat(v, 'g', -1, 64))
	}
}

// setBound tightens a minimum (lower) or maximum.
func setBound(b **float64, excl *bool, v float64, exclusive, lower bool) {
	if *b != nil {
		tighter := v > **b || (v == **b && exclusive)
		if !lower {
			tighter = v < **b || (v == **b && exclusive)
		}
		if !tighter {
			return
		}
	}
	*b, *excl = &v, exclusive
}

func jsonNumber(t *model.TypeRef, v float64) any {
	if model.ValueKind(t) == model.KindFloat {
		return v
	}
	return int64(v)
}

// lowerPattern: the value matches validator's own regular expression;
// numbers always pass, or (latitude, longitude) are bounded.
func lowerPattern(k model.PatternKeyword) lowering {
	return func(c *applyContext) {
		if model.ValueKind(c.Use.Type) != model.KindString {
			if lo, hi := k.NumberRange(); lo != hi {
				setBound(&c.Self.Minimum, &c.Self.ExclusiveMinimum, lo, false, true)
				setBound(&c.Self.Maximum, &c.Self.ExclusiveMaximum, hi, false, false)
			}
			return
		}
		c.AddPattern(k.Pattern())
	}
}

// lowerOneOf: oneof and noneof.
func lowerOneOf(not bool) lowering {
	return func(c *applyContext) {
		vals := c.Use.Value.([]any)
		if !not {
			c.AddEnum(vals)
			return
		}
		if len(vals) == 0 {
			return
		}
		var js []apiext.JSON
		for _, v := range vals {
			raw, _ := jsonMarshal(v)
			js = append(js, apiext.JSON{Raw: raw})
		}
		c.AddNot(apiext.JSONSchemaProps{Enum: js})
	}
}

// lowerFoldOneOf: oneofci and noneofci, a CEL rule. A non-ASCII value is
// runtime only (model.Carry), and never reaches here.
func lowerFoldOneOf(not bool) lowering {
	return func(c *applyContext) {
		vals := c.Use.Value.([]string)
		quoted := make([]string, len(vals))
		for i, v := range vals {
			quoted[i] = celQuote(strings.ToLower(v))
		}
		// strings.EqualFold also equates the Kelvin sign with k and the long s
		// with s: the only non-ASCII runes that fold to ASCII letters
		rule := "self.replace('\\u212a', 'k').replace('\\u017f', 's').lowerAscii() in [" + strings.Join(quoted, ", ") + "]"
		msg := "must be one of (ignoring case): " + strings.Join(vals, ", ")
		if not {
			rule, msg = "!("+rule+")", "must not be one of (ignoring case): "+strings.Join(vals, ", ")
		}
		c.AddRule(rule, msg)
	}
}

// lowerUnique: a slice of scalars is a set; the other forms are runtime
// only (model.Carry), and never reach here.
func lowerUnique(c *applyContext) {
	if c.Target == model.TargetCRD {
		set := "set"
		c.Self.XListType = &set
	} else {
		c.Self.UniqueItems = true
	}
}

// lowerBoolean: the string parses as a Go bool (bools always pass).
func lowerBoolean(c *applyContext) {
	if model.ValueKind(c.Use.Type) == model.KindString {
		c.AddEnum([]any{"1", "t", "T", "TRUE", "true", "True", "0", "f", "F", "FALSE", "false", "False"})
	}
}

// lowerStrMatch: contains, excludes, startswith and friends, as a pattern
// (or a pattern the value must not match).
func lowerStrMatch(name string) lowering {
	negated := model.NegatedMatch(name)
	return func(c *applyContext) {
		p := c.Use.Param
		var re string
		switch name {
		case "containsany", "excludesall":
			re = "[" + regexpClass(p) + "]"
		case "startswith", "startsnotwith":
			re = "^" + regexp.QuoteMeta(p)
		case "endswith", "endsnotwith":
			re = regexp.QuoteMeta(p) + "$"
		default:
			re = regexp.QuoteMeta(p)
		}
		if negated {
			c.AddNot(apiext.JSONSchemaProps{Pattern: re})
			return
		}
		c.AddPattern(re)
	}
}

func regexpClass(chars string) string {
	var b strings.Builder
	for _, r := range chars {
		if strings.ContainsRune(`\]^-[`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// lowerFormula: formats the API server's CEL libraries check (IP, CIDR).
func lowerFormula(k model.FormulaKeyword) lowering {
	return func(c *applyContext) { c.AddRule(k.Formula(), "must be "+k.Doc()) }
}
