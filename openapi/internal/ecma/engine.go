package ecma

import (
	"strconv"
	"strings"
	"unicode/utf16"

	"github.com/dlclark/regexp2"
)

// Regexp is an ECMAScript regular expression (dlclark/regexp2 in its
// ECMAScript mode, the engine ogen's clients fall back to) matched as an
// ECMAScript engine without flags matches: on the UTF-16 code units of the
// string, so an astral rune is two units. kin-openapi's schema validation
// uses it (SetSchemaRegexCompiler) to judge documents by the meaning
// OpenAPI gives `pattern`.
//
// regexp2 v1.12.0 fails to match a class of surrogate code units followed
// by another class (`[\uD800-\uDBFF][\uDC00-\uDFFF]` never matches), so
// surrogate units are relabelled, in the pattern and in the input alike,
// to runes of plane 15 (U+F0000 + unit - 0xD800), which no UTF-16 input
// holds as a single unit: the relabelling is one-to-one and changes no
// verdict.
type Regexp struct{ re *regexp2.Regexp }

const relabel = 0xF0000 - surrogateMin

// Compile compiles an ECMA-262 pattern.
func Compile(pattern string) (*Regexp, error) {
	re, err := regexp2.Compile(relabelSurrogates(pattern), regexp2.ECMAScript)
	if err != nil {
		return nil, err
	}
	return &Regexp{re: re}, nil
}

// MatchString reports whether the pattern matches somewhere in s.
func (r *Regexp) MatchString(s string) bool {
	units := utf16.Encode([]rune(s))
	rs := make([]rune, len(units))
	for i, u := range units {
		rs[i] = rune(u)
		if rs[i] >= surrogateMin && rs[i] <= surrogateMax {
			rs[i] += relabel
		}
	}
	ok, err := r.re.MatchRunes(rs)
	return ok && err == nil
}

// relabelSurrogates writes every \uXXXX escape of a surrogate as the
// relabelled rune itself.
func relabelSurrogates(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] != '\\' || i+1 >= len(p) {
			b.WriteByte(p[i])
			continue
		}
		if p[i+1] == 'u' && i+6 <= len(p) {
			if u, err := strconv.ParseUint(p[i+2:i+6], 16, 32); err == nil && u >= surrogateMin && u <= surrogateMax {
				b.WriteRune(rune(u) + relabel)
				i += 5
				continue
			}
		}
		b.WriteString(p[i : i+2])
		i++
	}
	return b.String()
}
