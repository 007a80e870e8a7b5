package model

import (
	"regexp"
	"strings"
)

// Keywords on text: validator's regular expressions, the contains and
// starts/ends families, and the formats the API server's CEL libraries
// check (ip, cidr).

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

// regexKeywords are the keywords validator defines by a regular expression
// (its own, copied: regexes.go of validator v10.30).
func regexKeywords() []Keyword {
	var out []Keyword
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
		out = append(out, r)
	}
	return out
}

const emailPattern = "^(?:(?:(?:(?:[a-zA-Z]|\\d|[!#\\$%&'\\*\\+\\-\\/=\\?\\^_`{\\|}~]|[\\x{00A0}-\\x{D7FF}\\x{F900}-\\x{FDCF}\\x{FDF0}-\\x{FFEF}])+(?:\\.([a-zA-Z]|\\d|[!#\\$%&'\\*\\+\\-\\/=\\?\\^_`{\\|}~]|[\\x{00A0}-\\x{D7FF}\\x{F900}-\\x{FDCF}\\x{FDF0}-\\x{FFEF}])+)*)|(?:(?:\\x22)(?:(?:(?:(?:\\x20|\\x09)*(?:\\x0d\\x0a))?(?:\\x20|\\x09)+)?(?:(?:[\\x01-\\x08\\x0b\\x0c\\x0e-\\x1f\\x7f]|\\x21|[\\x23-\\x5b]|[\\x5d-\\x7e]|[\\x{00A0}-\\x{D7FF}\\x{F900}-\\x{FDCF}\\x{FDF0}-\\x{FFEF}])|(?:(?:[\\x01-\\x09\\x0b\\x0c\\x0d-\\x7f]|[\\x{00A0}-\\x{D7FF}\\x{F900}-\\x{FDCF}\\x{FDF0}-\\x{FFEF}]))))*(?:(?:(?:\\x20|\\x09)*(?:\\x0d\\x0a))?(\\x20|\\x09)+)?(?:\\x22))))@(?:(?:(?:[a-zA-Z]|\\d|[\\x{00A0}-\\x{D7FF}\\x{F900}-\\x{FDCF}\\x{FDF0}-\\x{FFEF}])|(?:(?:[a-zA-Z]|\\d|[\\x{00A0}-\\x{D7FF}\\x{F900}-\\x{FDCF}\\x{FDF0}-\\x{FFEF}])(?:[a-zA-Z]|\\d|-|\\.|~|[\\x{00A0}-\\x{D7FF}\\x{F900}-\\x{FDCF}\\x{FDF0}-\\x{FFEF}])*(?:[a-zA-Z]|\\d|[\\x{00A0}-\\x{D7FF}\\x{F900}-\\x{FDCF}\\x{FDF0}-\\x{FFEF}])))\\.)+(?:(?:[a-zA-Z]|[\\x{00A0}-\\x{D7FF}\\x{F900}-\\x{FDCF}\\x{FDF0}-\\x{FFEF}])|(?:(?:[a-zA-Z]|[\\x{00A0}-\\x{D7FF}\\x{F900}-\\x{FDCF}\\x{FDF0}-\\x{FFEF}])(?:[a-zA-Z]|\\d|-|\\.|~|[\\x{00A0}-\\x{D7FF}\\x{F900}-\\x{FDCF}\\x{FDF0}-\\x{FFEF}])*(?:[a-zA-Z]|[\\x{00A0}-\\x{D7FF}\\x{F900}-\\x{FDCF}\\x{FDF0}-\\x{FFEF}])))\\.?$"

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
