package model

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// This file is the registry: every baked-in keyword of validator v10.30,
// each a typed definition. Families share a Go type; each registered value
// is one keyword.

func init() {
	register(
		structural{"omitempty", "the zero value (nil for slices, maps and pointers) skips the other checks"},
		structural{"omitnil", "nil skips the other checks"},
		structural{"omitzero", "the zero value skips the other checks"},
		structural{"dive", "the checks after it apply to each element (or map value)"},
		structural{"keys", "after dive: the checks up to endkeys apply to map keys"},
		structural{"endkeys", "ends a keys block"},
		structural{"structonly", "validates a struct field's own tag only, not its fields"},
		structural{"nostructlevel", "skips struct-level validation functions"},
		required{},
	)
	for _, op := range []string{"len", "min", "max", "eq", "ne", "lt", "lte", "gt", "gte"} {
		register(bound{op})
	}
	registerRegexes()
	register(
		oneOf{"oneof", false}, oneOf{"noneof", true},
		foldOneOf{"oneofci", false}, foldOneOf{"noneofci", true},
		unique{},
		boolean{},
		strMatch{"contains", "contains the text"}, strMatch{"containsany", "contains any of the characters"},
		strMatch{"containsrune", "contains the rune"}, strMatch{"excludes", "does not contain the text"},
		strMatch{"excludesall", "contains none of the characters"}, strMatch{"excludesrune", "does not contain the rune"},
		strMatch{"startswith", "starts with the text"}, strMatch{"endswith", "ends with the text"},
		strMatch{"startsnotwith", "does not start with the text"}, strMatch{"endsnotwith", "does not end with the text"},
		celFormat{"ip", "isIP(self)", "an IP address"},
		celFormat{"ipv4", "isIP(self) && ip(self).family() == 4", "an IPv4 address"},
		celFormat{"ipv6", "isIP(self) && ip(self).family() == 6", "an IPv6 address"},
		celFormat{"cidr", "isCIDR(self)", "a CIDR"},
		celFormat{"cidrv4", "isCIDR(self) && cidr(self).ip().family() == 4 && cidr(self).ip() == cidr(self).masked().ip()", "an IPv4 CIDR with no host bits set"},
		celFormat{"cidrv6", "isCIDR(self) && cidr(self).ip().family() == 6", "an IPv6 CIDR"},
	)
	for _, op := range []string{"eqfield", "nefield", "gtfield", "gtefield", "ltfield", "ltefield"} {
		register(fieldCompare{op})
	}
	for _, name := range []string{"required_if", "required_unless", "required_with", "required_with_all", "required_without", "required_without_all",
		"excluded_if", "excluded_unless", "excluded_with", "excluded_with_all", "excluded_without", "excluded_without_all"} {
		register(conditional{name})
	}
	registerRuntimeOnly()
}

// structural keywords shape the tag; the parser handles them.
type structural struct{ name, doc string }

func (k structural) Name() string                { return k.name }
func (k structural) Class() Class                { return Structural }
func (k structural) Doc() string                 { return k.doc }
func (k structural) Schema() string              { return "(tag structure)" }
func (k structural) Resolve(u *Use) (any, error) { return nil, nil }

// required: the value is not the zero value (slices, maps and pointers: not nil).
type required struct{}

func (required) Name() string { return "required" }
func (required) Class() Class { return Schema }
func (required) Doc() string {
	return "the value is not the zero value; slices, maps and pointers are not nil"
}
func (required) Schema() string {
	return "`required`; strings `minLength: 1`; numbers CEL `self != 0` (OpenAPI `not: {enum: [0]}`); bools `enum: [true]`"
}
func (required) Resolve(u *Use) (any, error) { return nil, nil }

// SkipsRequired reports a value validator's default instance checks no
// `required` on: a struct (metav1.Time, Quantity, IntOrString, a struct of
// the model...) that is not a time.Time and not behind a pointer.
func SkipsRequired(t *TypeRef) bool {
	switch t.Kind {
	case KindStruct, KindQuantity, KindMetaDuration, KindIntOrString:
		return true
	case KindTime:
		return !isStdTime(t)
	}
	return false
}

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

// regex keywords: the value matches validator's own regular expression.
type regex struct {
	name, pattern, doc string
	numbers            bool // numbers always pass (numeric, number) or are bounded (latitude, longitude)
	lo, hi             float64
}

func (k regex) Name() string { return k.name }
func (k regex) Class() Class { return Schema }
func (k regex) Doc() string  { return k.doc }
func (k regex) Schema() string {
	if k.lo != k.hi {
		return "`pattern` (validator's regular expression); numbers `minimum`/`maximum`"
	}
	return "`pattern` (validator's regular expression)"
}
func (k regex) Resolve(u *Use) (any, error) {
	ok := strKinds
	if k.numbers {
		ok |= numKinds
	}
	if err := checkKind(u, ok); err != nil {
		return nil, err
	}
	if u.HasParam() {
		return nil, errorf("%q takes no parameter", u.Name)
	}
	return nil, nil
}

// HasParam reports whether the use wrote '=' with a parameter.
func (u *Use) HasParam() bool { return u.Param != "" }

func registerRegexes() {
	for _, r := range []regex{
		{name: "alpha", pattern: "^[a-zA-Z]+$", doc: "ASCII letters only"},
		{name: "alphaspace", pattern: "^[a-zA-Z ]+$", doc: "ASCII letters and spaces"},
		{name: "alphanum", pattern: "^[a-zA-Z0-9]+$", doc: "ASCII letters and digits"},
		{name: "alphanumspace", pattern: "^[a-zA-Z0-9 ]+$", doc: "ASCII letters, digits and spaces"},
		{name: "alphaunicode", pattern: `^[\p{L}]+$`, doc: "Unicode letters"},
		{name: "alphanumunicode", pattern: `^[\p{L}\p{N}]+$`, doc: "Unicode letters and digits"},
		{name: "numeric", pattern: `^[-+]?[0-9]+(?:\.[0-9]+)?$`, doc: "a decimal number (numbers always pass)", numbers: true},
		{name: "number", pattern: "^[0-9]+$", doc: "digits only (numbers always pass)", numbers: true},
		{name: "hexadecimal", pattern: "^(0[xX])?[0-9a-fA-F]+$", doc: "hexadecimal digits"},
		{name: "hexcolor", pattern: "^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{4}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$", doc: "a #rgb, #rgba, #rrggbb or #rrggbbaa color"},
		{name: "e164", pattern: `^\+?[1-9]\d{7,14}$`, doc: "an E.164 phone number"},
		{name: "base32", pattern: "^(?:[A-Z2-7]{8})*(?:[A-Z2-7]{2}={6}|[A-Z2-7]{4}={4}|[A-Z2-7]{5}={3}|[A-Z2-7]{7}=|[A-Z2-7]{8})$", doc: "base32 text"},
		{name: "base64", pattern: `^(?:[A-Za-z0-9+\/]{4})*(?:[A-Za-z0-9+\/]{2}==|[A-Za-z0-9+\/]{3}=|[A-Za-z0-9+\/]{4})$`, doc: "base64 text"},
		{name: "base64url", pattern: "^(?:[A-Za-z0-9-_]{4})*(?:[A-Za-z0-9-_]{2}==|[A-Za-z0-9-_]{3}=|[A-Za-z0-9-_]{4})$", doc: "URL-safe base64 text"},
		{name: "base64rawurl", pattern: "^(?:[A-Za-z0-9-_]{4})*(?:[A-Za-z0-9-_]{2,4})$", doc: "URL-safe base64 text without padding"},
		{name: "uuid", pattern: "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$", doc: "a UUID"},
		{name: "uuid3", pattern: "^[0-9a-f]{8}-[0-9a-f]{4}-3[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$", doc: "a version 3 UUID"},
		{name: "uuid4", pattern: "^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$", doc: "a version 4 UUID"},
		{name: "uuid5", pattern: "^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$", doc: "a version 5 UUID"},
		{name: "uuid7", pattern: "^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$", doc: "a version 7 UUID"},
		{name: "uuid_rfc4122", pattern: "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$", doc: "an RFC 4122 UUID"},
		{name: "uuid3_rfc4122", pattern: "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-3[0-9a-fA-F]{3}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$", doc: "an RFC 4122 version 3 UUID"},
		{name: "uuid4_rfc4122", pattern: "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-4[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$", doc: "an RFC 4122 version 4 UUID"},
		{name: "uuid5_rfc4122", pattern: "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-5[0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}$", doc: "an RFC 4122 version 5 UUID"},
		{name: "ulid", pattern: "^(?i)[0-7][A-HJKMNP-TV-Z0-9]{25}$", doc: "a ULID"},
		{name: "md4", pattern: "^[0-9a-f]{32}$", doc: "an MD4 hex digest"},
		{name: "md5", pattern: "^[0-9a-f]{32}$", doc: "an MD5 hex digest"},
		{name: "sha256", pattern: "^[0-9a-f]{64}$", doc: "a SHA-256 hex digest"},
		{name: "sha384", pattern: "^[0-9a-f]{96}$", doc: "a SHA-384 hex digest"},
		{name: "sha512", pattern: "^[0-9a-f]{128}$", doc: "a SHA-512 hex digest"},
		{name: "ripemd128", pattern: "^[0-9a-f]{32}$", doc: "a RIPEMD-128 hex digest"},
		{name: "ripemd160", pattern: "^[0-9a-f]{40}$", doc: "a RIPEMD-160 hex digest"},
		{name: "tiger128", pattern: "^[0-9a-f]{32}$", doc: "a Tiger-128 hex digest"},
		{name: "tiger160", pattern: "^[0-9a-f]{40}$", doc: "a Tiger-160 hex digest"},
		{name: "tiger192", pattern: "^[0-9a-f]{48}$", doc: "a Tiger-192 hex digest"},
		{name: "ascii", pattern: "^[\\x00-\\x7F]*$", doc: "ASCII characters only"},
		{name: "printascii", pattern: "^[\\x20-\\x7E]*$", doc: "printable ASCII characters only"},
		{name: "multibyte", pattern: "^$|[^\\x00-\\x7F]", doc: "contains a multi-byte character (the empty string passes)"},
		{name: "latitude", pattern: `^[-+]?([1-8]?\d(\.\d+)?|90(\.0+)?)$`, doc: "a latitude (-90 to 90)", numbers: true, lo: -90, hi: 90},
		{name: "longitude", pattern: `^[-+]?(180(\.0+)?|((1[0-7]\d)|([1-9]?\d))(\.\d+)?)$`, doc: "a longitude (-180 to 180)", numbers: true, lo: -180, hi: 180},
		{name: "ssn", pattern: `^[0-9]{3}[ -](0[1-9]|[1-9][0-9])[ -]([1-9][0-9]{3}|[0-9][1-9][0-9]{2}|[0-9]{2}[1-9][0-9]|[0-9]{3}[1-9])$`, doc: "a U.S. social security number (validator also demands 11 characters, so both separators)"},
		{name: "hostname_rfc1123", pattern: `^[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$`, doc: "an RFC 1123 host name"},
		{name: "hostname", pattern: `^[a-zA-Z]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$`, doc: "an RFC 952 host name"},
		{name: "jwt", pattern: `^[A-Za-z0-9-_]+\.[A-Za-z0-9-_]+\.[A-Za-z0-9-_]*$`, doc: "a JSON Web Token"},
		{name: "semver", pattern: `^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$`, doc: "a semantic version"},
		{name: "cve", pattern: `^CVE-(1999|2\d{3})-(0[^0]\d{2}|0\d[^0]\d{1}|0\d{2}[^0]|[1-9]{1}\d{3,})$`, doc: "a CVE identifier"},
		{name: "ein", pattern: `^(\d{2}-\d{7})$`, doc: "a U.S. employer identification number"},
		{name: "mongodb", pattern: `^[a-f\d]{24}$`, doc: "a MongoDB ObjectId"},
		{name: "email", pattern: emailPattern, doc: "an e-mail address (validator also runs net/mail)"},
	} {
		regexp.MustCompile(r.pattern)
		register(r)
	}
}

const emailPattern = "^(?:(?:(?:(?:[a-zA-Z]|\\d|[!#\\$%&'\\*\\+\\-\\/=\\?\\^_`{\\|}~]|[\\x{00A0}-\\x{D7FF}\\x{F900}-\\x{FDCF}\\x{FDF0}-\\x{FFEF}])+(?:\\.([a-zA-Z]|\\d|[!#\\$%&'\\*\\+\\-\\/=\\?\\^_`{\\|}~]|[\\x{00A0}-\\x{D7FF}\\x{F900}-\\x{FDCF}\\x{FDF0}-\\x{FFEF}])+)*)|(?:(?:\\x22)(?:(?:(?:(?:\\x20|\\x09)*(?:\\x0d\\x0a))?(?:\\x20|\\x09)+)?(?:(?:[\\x01-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f]|\\x21|[\\x23-\\x5b]|[\\x5d-\\x7e]|[\\x{00A0}-\\x{D7FF}\\x{F900}-\\x{FDCF}\\x{FDF0}-\\x{FFEF}])|(?:(?:[\\x01-\\x09\\x0b\\x0c\\x0d-\\x7f]|[\\x{00A0}-\\x{D7FF}\\x{F900}-\\x{FDCF}\\x{FDF0}-\\x{FFEF}]))))*(?:(?:(?:\\x20|\\x09)*(?:\\x0d\\x0a))?(\\x20|\\x09)+)?(?:\\x22))))@(?:(?:(?:[a-zA-Z]|\\d|[\\x{00A0}-\\x{D7FF}\\x{F900}-\\x{FDCF}\\x{FDF0}-\\x{FFEF}])|(?:(?:[a-zA-Z]|\\d|[\\x{00A0}-\\x{D7FF}\\x{F900}-\\x{FDCF}\\x{FDF0}-\\x{FFEF}])(?:[a-zA-Z]|\\d|-|\\.|~|[\\x{00A0}-\\x{D7FF}\\x{F900}-\\x{FDCF}\\x{FDF0}-\\x{FFEF}])*(?:[a-zA-Z]|\\d|[\\x{00A0}-\\x{D7FF}\\x{F900}-\\x{FDCF}\\x{FDF0}-\\x{FFEF}])))\\.)+(?:(?:[a-zA-Z]|[\\x{00A0}-\\x{D7FF}\\x{F900}-\\x{FDCF}\\x{FDF0}-\\x{FFEF}])|(?:(?:[a-zA-Z]|[\\x{00A0}-\\x{D7FF}\\x{F900}-\\x{FDCF}\\x{FDF0}-\\x{FFEF}])(?:[a-zA-Z]|\\d|-|\\.|~|[\\x{00A0}-\\x{D7FF}\\x{F900}-\\x{FDCF}\\x{FDF0}-\\x{FFEF}])*(?:[a-zA-Z]|[\\x{00A0}-\\x{D7FF}\\x{F900}-\\x{FDCF}\\x{FDF0}-\\x{FFEF}])))\\.?$"

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

// strMatch: contains, excludes, startswith and friends.
type strMatch struct{ name, doc string }

func (k strMatch) Name() string { return k.name }
func (k strMatch) Class() Class { return Schema }
func (k strMatch) Doc() string  { return "the string " + k.doc }
func (k strMatch) Schema() string {
	if k.negated() {
		return "`not: {pattern}`"
	}
	return "`pattern`"
}
func (k strMatch) negated() bool { return NegatedMatch(k.name) }

// NegatedMatch reports the text keywords that refuse a match (excludes...,
// startsnotwith, endsnotwith).
func NegatedMatch(name string) bool {
	return strings.HasPrefix(name, "excludes") || strings.Contains(name, "not")
}
func (k strMatch) Resolve(u *Use) (any, error) {
	if err := checkKind(u, strKinds); err != nil {
		return nil, err
	}
	if u.Param == "" {
		return nil, errorf("%q needs a parameter", u.Name)
	}
	if strings.HasSuffix(u.Name, "rune") && len([]rune(u.Param)) != 1 {
		return nil, errorf("%q needs exactly one character, not %q", u.Name, u.Param)
	}
	return nil, nil
}

// celFormat: formats the API server's CEL libraries check (IP, CIDR).
type celFormat struct{ name, rule, what string }

func (k celFormat) Name() string                { return k.name }
func (k celFormat) Class() Class                { return CEL }
func (k celFormat) Doc() string                 { return k.what }
func (k celFormat) Schema() string              { return "CEL `" + k.rule + "`" }
func (k celFormat) Resolve(u *Use) (any, error) { return nil, checkKind(u, strKinds) }
