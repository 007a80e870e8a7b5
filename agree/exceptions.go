package agree

import (
	"encoding/base64"
	"encoding/json"
	"math"
	"net"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"

	"github.com/modelgen/modelgen/model"
)

// Exception is a divergence the formats cannot avoid, documented in the
// README and pinned by a test.
type Exception struct {
	// Name is a short identifier used in reports ("email-net-mail").
	Name string
	// Why explains the divergence.
	Why string
	// Side limits the exception to one schema ("" for both).
	Side Side
	// Match reports whether the exception explains a divergence on a side
	// (nil for an exception that normalizes).
	Match func(j *Judgement, side Side) bool
	// Normalize rewrites a decoded document (json.Number numbers) into the
	// spelling the schemas understand, without changing what encoding/json
	// makes of it, and reports whether it changed anything. Normalizing
	// exceptions compose: a divergence is theirs when the document, with
	// all of them applied, is judged as validator judges it.
	Normalize func(j *Judgement, doc any) bool
}

// Builtin returns the documented exceptions.
func Builtin() []Exception {
	return []Exception{nullAsZero, integralFloat, emailNetMail, ipParser, emptyBytes, float32Rounding, formatArray, bytesArray, base64Newlines}
}

// nullAsZero: encoding/json leaves a field untouched on null (validator
// then sees the zero value) and the API server prunes the null of a
// non-nullable field; the OpenAPI document keeps nullable false, so a
// contract validator refuses null. The contract is stricter than the
// server, never looser: a client that follows it is always accepted.
var nullAsZero = Exception{
	Name: "null-as-zero",
	Why:  "encoding/json reads null as the zero value; the OpenAPI document declares nullable only where validator accepts nil, and the API server keeps (and refuses) a null list element or map value",
	Normalize: func(j *Judgement, doc any) bool {
		return denull(doc, j.subject.oapi.schema, 0)
	},
}

// denull rewrites a document as encoding/json reads its nulls: a struct
// property that is null is left out; a null list element or map value
// becomes its zero value. It reports whether it changed anything.
func denull(v any, s *openapi3.Schema, depth int) bool {
	if s == nil || depth > 32 {
		return false
	}
	changed := false
	switch x := v.(type) {
	case map[string]any:
		props, additional := schemaProperties(s)
		for k, e := range x {
			if ps, ok := props[k]; ok {
				if e == nil {
					delete(x, k)
					changed = true
					continue
				}
				changed = denull(e, ps, depth+1) || changed
			} else if additional != nil {
				if e == nil {
					x[k] = zeroOfType(typeName(additional))
					changed = true
					continue
				}
				changed = denull(e, additional, depth+1) || changed
			}
		}
	case []any:
		items := schemaItems(s)
		for i, e := range x {
			if e == nil && items != nil {
				x[i] = zeroOfType(typeName(items))
				changed = true
				continue
			}
			changed = denull(e, items, depth+1) || changed
		}
	}
	return changed
}

// schemaProperties collects the properties of a schema and of its allOf
// parts (a $ref with siblings becomes allOf), and its additionalProperties.
func schemaProperties(s *openapi3.Schema) (map[string]*openapi3.Schema, *openapi3.Schema) {
	props := map[string]*openapi3.Schema{}
	var additional *openapi3.Schema
	var visit func(s *openapi3.Schema, depth int)
	visit = func(s *openapi3.Schema, depth int) {
		if s == nil || depth > 8 {
			return
		}
		for k, r := range s.Properties {
			if r != nil && r.Value != nil {
				props[k] = r.Value
			}
		}
		if ap := s.AdditionalProperties.Schema; ap != nil && ap.Value != nil {
			additional = ap.Value
		}
		for _, a := range s.AllOf {
			if a != nil {
				visit(a.Value, depth+1)
			}
		}
	}
	visit(s, 0)
	return props, additional
}

func schemaItems(s *openapi3.Schema) *openapi3.Schema {
	if s.Items != nil && s.Items.Value != nil {
		return s.Items.Value
	}
	for _, a := range s.AllOf {
		if a != nil && a.Value != nil {
			if it := schemaItems(a.Value); it != nil {
				return it
			}
		}
	}
	return nil
}

// integralFloat: a JSON number spelled with a fraction or an exponent
// (1.0, 1e1) is an integer to JSON Schema and to the API server, which
// stores it as the integer; encoding/json refuses it for a Go integer.
// A schema cannot tell 1.0 from 1: they are the same JSON number.
var integralFloat = Exception{
	Name: "integral-float-integer",
	Why:  "1.0 and 1e1 are integers to JSON Schema and to the API server; encoding/json refuses them for Go integer types",
	Match: func(j *Judgement, side Side) bool {
		m := intDecodeError.FindStringSubmatch(j.Validator.Reason)
		if m == nil || !strings.ContainsAny(m[1], ".eE") {
			return false
		}
		f, err := strconv.ParseFloat(m[1], 64)
		if err != nil || f != math.Trunc(f) {
			return false
		}
		lo, hi, ok := goIntRange(m[2])
		if !ok && j.subject != nil {
			// a named integer type (type Port int32): encoding/json names
			// the type, not its kind
			lo, hi, ok = namedIntRange(j.subject.rt, m[2])
		}
		return ok && f >= lo && f <= hi
	},
}

// namedIntRange is the range of the integer type the decode error names
// (reflect's name of it, "v1.Port"), found among the types the subject's
// fields reach.
func namedIntRange(root reflect.Type, name string) (lo, hi float64, ok bool) {
	seen := map[reflect.Type]bool{}
	var found reflect.Type
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		if t == nil || seen[t] || found != nil {
			return
		}
		seen[t] = true
		if t.Name() != "" && t.String() == name {
			found = t
			return
		}
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array:
			walk(t.Elem())
		case reflect.Map:
			walk(t.Key())
			walk(t.Elem())
		case reflect.Struct:
			for i := range t.NumField() {
				walk(t.Field(i).Type)
			}
		}
	}
	walk(root)
	if found == nil {
		return 0, 0, false
	}
	bits := found.Bits()
	switch found.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return -math.Ldexp(1, bits-1), math.Ldexp(1, bits-1) - 1, true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return 0, math.Ldexp(1, bits) - 1, true
	}
	return 0, 0, false
}

var intDecodeError = regexp.MustCompile(`cannot unmarshal number (\S+) into Go (?:struct field \S+|value) of type (\S+)`)

// goIntRange is the range of a Go integer type named in a decode error.
func goIntRange(name string) (lo, hi float64, ok bool) {
	if name == "time.Duration" {
		name = "int64"
	}
	unsigned := strings.HasPrefix(name, "uint")
	bits := 64
	if n := strings.TrimLeft(name, "uint"); n != "" {
		b, err := strconv.Atoi(n)
		if err != nil {
			return 0, 0, false
		}
		bits = b
	} else if name != "int" && name != "uint" {
		return 0, 0, false
	}
	if unsigned {
		return 0, math.Ldexp(1, bits) - 1, true
	}
	return -math.Ldexp(1, bits-1), math.Ldexp(1, bits-1) - 1, true
}

// emailNetMail: validator's email runs net/mail.ParseAddress as well as its
// regular expression; the schemas carry the expression only, since no
// pattern or Kubernetes CEL function parses RFC 5322 addresses. The
// schemas let through addresses net/mail refuses (a quoted local part with
// folding white space, a trailing dot in the domain).
var emailNetMail = Exception{
	Name: "email-net-mail",
	Why:  "validator's email also runs net/mail.ParseAddress, which no schema keyword or CEL function can express",
	Match: func(j *Judgement, side Side) bool {
		if j.Validator.Accept || len(j.Keywords) == 0 {
			return false
		}
		for _, k := range j.Keywords {
			if k != "email" {
				return false
			}
		}
		return true
	},
}

// ipParser: validator parses with Go's net.ParseIP and net.ParseCIDR,
// which accept an IPv4-mapped IPv6 address (::ffff:10.0.0.1, an IPv4
// address to validator) and a zero-padded prefix length (10.0.0.0/08).
// The API server's CEL ip() and cidr() refuse both, and are the only IP
// parsers a CRD can call.
var ipParser = Exception{
	Name: "ip-parser",
	Why:  "net.ParseIP/ParseCIDR accept IPv4-mapped IPv6 addresses and zero-padded prefix lengths; the API server's CEL ip()/cidr() refuse them",
	Side: CRD,
	Match: func(j *Judgement, side Side) bool {
		if !j.Validator.Accept || !strings.Contains(j.CRD.Reason, "must be a") {
			return false
		}
		found := false
		forEachString(j.Doc, func(s string) {
			found = found || goOnlyAddress(s)
		})
		return found
	},
}

// goOnlyAddress reports an address Go parses and Kubernetes' CEL refuses.
func goOnlyAddress(s string) bool {
	host, prefix, isCIDR := strings.Cut(s, "/")
	if isCIDR {
		if _, _, err := net.ParseCIDR(s); err != nil {
			return false
		}
		if len(prefix) > 1 && prefix[0] == '0' {
			return true
		}
	} else if net.ParseIP(s) == nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.To4() != nil && strings.Contains(host, ":")
}

func forEachString(doc []byte, fn func(string)) {
	v, err := decode(doc)
	if err != nil {
		return
	}
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			fn(x)
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for k, e := range x {
				fn(k)
				walk(e)
			}
		}
	}
	walk(v)
}

// emptyBytes: encoding/json decodes "" into an empty []byte; the API
// server's format: byte (govalidator.IsBase64) refuses the empty string.
var emptyBytes = Exception{
	Name: "empty-bytes",
	Why:  "the API server's byte format refuses \"\", which encoding/json decodes as an empty []byte",
	Side: CRD,
	Match: func(j *Judgement, side Side) bool {
		return j.Validator.Accept && strings.Contains(j.CRD.Reason, `must be of type byte: ""`)
	},
}

// float32Rounding: encoding/json rounds a number to float32 before
// validator sees it (0.5000000000000001 is 0.5, 5e-324 is 0); the schemas
// compare the number as written. The exception holds only when rounding
// the document's float32 fields makes the schema agree.
var float32Rounding = Exception{
	Name: "float32-rounding",
	Why:  "encoding/json rounds numbers to float32 before validator compares them; JSON Schema and CEL compare the number as written",
	Normalize: func(j *Judgement, doc any) bool {
		return roundFloat32(doc, j.subject.mt, 0)
	},
}

// rewrite replaces values of the document in place, walking it with the
// model: fn sees each value of a field (and of list elements and map
// values) with its Go type, and returns a replacement when it has one.
func rewrite(v any, t *model.Type, fn func(any, *model.TypeRef) (any, bool), depth int) bool {
	obj, ok := v.(map[string]any)
	if !ok || t == nil || depth > 16 {
		return false
	}
	changed := false
	for _, f := range t.Fields {
		if f.Inline || f.JSONName == "" {
			changed = rewrite(v, structOf(f.Type), fn, depth+1) || changed
			continue
		}
		if e, ok := obj[f.JSONName]; ok {
			changed = rewriteValue(e, f.Type, fn, depth, func(n any) { obj[f.JSONName] = n }) || changed
		}
	}
	return changed
}

func rewriteValue(e any, t *model.TypeRef, fn func(any, *model.TypeRef) (any, bool), depth int, put func(any)) bool {
	if n, ok := fn(e, t); ok {
		put(n)
		return true
	}
	d := t.Deref()
	switch {
	case d == nil:
		return false
	case d.Kind == model.KindSlice:
		list, _ := e.([]any)
		changed := false
		for i := range list {
			changed = rewriteValue(list[i], d.Elem, fn, depth+1, func(n any) { list[i] = n }) || changed
		}
		return changed
	case d.Kind == model.KindMap:
		m, _ := e.(map[string]any)
		changed := false
		for k := range m {
			changed = rewriteValue(m[k], d.Elem, fn, depth+1, func(n any) { m[k] = n }) || changed
		}
		return changed
	}
	return rewrite(e, structOf(t), fn, depth+1)
}

// roundFloat32 rounds the numbers of float32 fields.
func roundFloat32(v any, t *model.Type, depth int) bool {
	return rewrite(v, t, func(e any, t *model.TypeRef) (any, bool) {
		d := t.Deref()
		n, ok := e.(json.Number)
		if d == nil || d.Kind != model.KindFloat || d.Bits != 32 || !ok {
			return nil, false
		}
		f, err := strconv.ParseFloat(string(n), 32)
		if err != nil || string(n) == strconv.FormatFloat(f, 'g', -1, 64) {
			return nil, false
		}
		return json.Number(strconv.FormatFloat(f, 'g', -1, 64)), true
	}, depth)
}

// bytesArray: encoding/json decodes a []byte from base64 text and also from
// a JSON array of numbers 0 to 255; the schemas declare the base64 form
// only, as controller-gen does. The exception holds only when spelling the
// arrays in base64 makes the schema agree.
var bytesArray = Exception{
	Name: "bytes-array",
	Why:  "encoding/json also reads a []byte from a JSON array of numbers; the schemas declare the base64 string only",
	Normalize: func(j *Judgement, doc any) bool {
		return rewrite(doc, j.subject.mt, base64Spelling, 0)
	},
}

func base64Spelling(e any, t *model.TypeRef) (any, bool) {
	list, ok := e.([]any)
	if d := t.Deref(); !ok || d == nil || d.Kind != model.KindBytes {
		return nil, false
	}
	b := make([]byte, len(list))
	for i, x := range list {
		n, ok := x.(json.Number)
		v, err := strconv.ParseUint(string(n), 10, 8)
		if !ok || err != nil {
			return nil, false
		}
		b[i] = byte(v)
	}
	return base64.StdEncoding.EncodeToString(b), true
}

// formatArray: the API server's type check (kube-openapi's typeValidator)
// lets a JSON array through for a string with a format (date-time, byte),
// a leftover of go-openapi treating []byte as a string; its format check
// then looks at strings only. encoding/json refuses the array.
var formatArray = Exception{
	Name: "format-array",
	Why:  "the API server's type check accepts a JSON array for a string with a format (date-time, byte)",
	Side: CRD,
	Match: func(j *Judgement, side Side) bool {
		if j.Validator.Accept || !j.CRD.Accept || j.subject == nil || j.subject.crd == nil {
			return false
		}
		v, err := decode(j.Doc)
		return err == nil && arrayForFormat(v, j.subject.crd.Structural(), 0)
	},
}

func arrayForFormat(v any, s *structuralschema.Structural, depth int) bool {
	if s == nil || depth > 32 {
		return false
	}
	switch x := v.(type) {
	case []any:
		if s.Type == "string" && s.ValueValidation != nil && s.ValueValidation.Format != "" {
			return true
		}
		for _, e := range x {
			if arrayForFormat(e, s.Items, depth+1) {
				return true
			}
		}
	case map[string]any:
		for k, e := range x {
			p, ok := s.Properties[k]
			switch {
			case ok && arrayForFormat(e, &p, depth+1):
				return true
			case !ok && s.AdditionalProperties != nil && arrayForFormat(e, s.AdditionalProperties.Structural, depth+1):
				return true
			}
		}
	}
	return false
}

// base64Newlines: encoding/json's base64 decoder skips '\r' and '\n';
// the byte format of OpenAPI validators and of the API server refuses
// them. The exception holds only when the document, without them, is
// judged as validator judges it.
var base64Newlines = Exception{
	Name: "base64-newlines",
	Why:  "encoding/json skips \\r and \\n inside base64; the byte format refuses them",
	Normalize: func(j *Judgement, doc any) bool {
		return rewrite(doc, j.subject.mt, func(e any, t *model.TypeRef) (any, bool) {
			s, ok := e.(string)
			if d := t.Deref(); !ok || d == nil || d.Kind != model.KindBytes || !strings.ContainsAny(s, "\r\n") {
				return nil, false
			}
			return strings.NewReplacer("\r", "", "\n", "").Replace(s), true
		}, 0)
	},
}
