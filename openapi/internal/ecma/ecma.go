// Package ecma translates Go (RE2) regular expressions into ECMA-262 ones
// with the same meaning, for the `pattern` keyword of an OpenAPI document,
// which OpenAPI defines as ECMA-262. Client generators compile such a
// pattern without flags, so the translation needs none: it works on the
// UTF-16 code units an ECMAScript engine sees, where RE2 works on runes.
//
// # How
//
// The pattern is parsed with regexp/syntax and printed back node by node:
//   - every rune, class and `.` becomes explicit code units: a rune
//     outside the Basic Multilingual Plane becomes its surrogate pair, and
//     a class its BMP part plus surrogate-pair alternatives, so that `\pL`,
//     `\x{1F600}` and `[^a]` count one rune where RE2 counts one;
//   - case folding ((?i)) becomes classes of each rune's fold orbit;
//   - `\A` and `^` (without (?m)) become `^`, `\z` and `$` become `$`
//     (ECMAScript's `$` without the m flag is the end of input, as RE2's);
//   - groups become non-capturing groups; \b and \B stay (both are ASCII).
//
// Multi-line anchors ((?m)^ and $) have no flag-free equivalent: Translate
// refuses them, and the caller emits no pattern and says so.
package ecma

import (
	"fmt"
	"regexp/syntax"
	"sort"
	"strings"
	"unicode"
	"unicode/utf16"
)

// Translate returns the ECMA-262 pattern that matches exactly the strings
// the RE2 pattern matches (searching, as `pattern` does), or an error
// saying why there is none.
func Translate(re2 string) (string, error) {
	tree, err := syntax.Parse(re2, syntax.Perl)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if err := emit(&b, tree); err != nil {
		return "", fmt.Errorf("pattern %q: %w", re2, err)
	}
	return b.String(), nil
}

// emit writes re so that it can be concatenated with its neighbours.
func emit(b *strings.Builder, re *syntax.Regexp) error {
	switch re.Op {
	case syntax.OpNoMatch:
		b.WriteString(`[^\s\S]`)
	case syntax.OpEmptyMatch:
		b.WriteString("(?:)")
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			if re.Flags&syntax.FoldCase != 0 {
				writeClass(b, foldOrbit(r))
			} else {
				writeRune(b, r)
			}
		}
	case syntax.OpCharClass:
		writeClass(b, re.Rune)
	case syntax.OpAnyCharNotNL:
		writeClass(b, []rune{0, '\n' - 1, '\n' + 1, unicode.MaxRune})
	case syntax.OpAnyChar:
		writeClass(b, []rune{0, unicode.MaxRune})
	case syntax.OpBeginText:
		b.WriteString("^")
	case syntax.OpEndText:
		b.WriteString("$")
	case syntax.OpBeginLine, syntax.OpEndLine:
		return fmt.Errorf("multi-line anchors ((?m)) have no ECMA-262 form without flags")
	case syntax.OpWordBoundary:
		b.WriteString(`\b`)
	case syntax.OpNoWordBoundary:
		b.WriteString(`\B`)
	case syntax.OpCapture:
		b.WriteString("(?:")
		if err := emit(b, re.Sub[0]); err != nil {
			return err
		}
		b.WriteString(")")
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		return emitRepeat(b, re)
	case syntax.OpConcat:
		for _, s := range re.Sub {
			if err := emit(b, s); err != nil {
				return err
			}
		}
	case syntax.OpAlternate:
		b.WriteString("(?:")
		for i, s := range re.Sub {
			if i > 0 {
				b.WriteString("|")
			}
			if err := emit(b, s); err != nil {
				return err
			}
		}
		b.WriteString(")")
	default:
		return fmt.Errorf("unsupported regular expression operator %v", re.Op)
	}
	return nil
}

func emitRepeat(b *strings.Builder, re *syntax.Regexp) error {
	inner := re.Sub[0]
	for inner.Op == syntax.OpCapture {
		inner = inner.Sub[0] // a group adds nothing to what matches
	}
	var sub strings.Builder
	if err := emit(&sub, inner); err != nil {
		return err
	}
	if emptyWidth(inner.Op) {
		// ECMA-262 refuses a quantifier on an assertion ("nothing to
		// repeat"); repeating one matches what matching it once (or, with a
		// minimum of 0, not at all) matches.
		if re.Op == syntax.OpStar || re.Op == syntax.OpQuest || (re.Op == syntax.OpRepeat && re.Min == 0) {
			b.WriteString("(?:)")
		} else {
			b.WriteString(sub.String())
		}
		return nil
	}
	if atom := sub.String(); isAtom(atom) {
		b.WriteString(atom)
	} else {
		b.WriteString("(?:" + atom + ")")
	}
	switch re.Op {
	case syntax.OpStar:
		b.WriteString("*")
	case syntax.OpPlus:
		b.WriteString("+")
	case syntax.OpQuest:
		b.WriteString("?")
	case syntax.OpRepeat:
		switch {
		case re.Max == -1:
			fmt.Fprintf(b, "{%d,}", re.Min)
		case re.Max == re.Min:
			fmt.Fprintf(b, "{%d}", re.Min)
		default:
			fmt.Fprintf(b, "{%d,%d}", re.Min, re.Max)
		}
	}
	if re.Flags&syntax.NonGreedy != 0 {
		b.WriteString("?")
	}
	return nil
}

// foldOrbit is the class of every rune that case-folds to r.
func foldOrbit(r rune) []rune {
	set := []rune{r}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		set = append(set, f)
	}
	sort.Slice(set, func(i, j int) bool { return set[i] < set[j] })
	var ranges []rune
	for _, x := range set {
		ranges = append(ranges, x, x)
	}
	return ranges
}

const (
	surrogateMin = 0xD800
	surrogateMax = 0xDFFF
	bmpMax       = 0xFFFF
)

// writeRune writes one rune as the code units an ECMAScript string holds.
func writeRune(b *strings.Builder, r rune) {
	if r > bmpMax {
		hi, lo := utf16.EncodeRune(r)
		writeUnit(b, hi, false)
		writeUnit(b, lo, false)
		return
	}
	writeUnit(b, r, false)
}

// writeUnit writes one UTF-16 code unit, escaped where it has a meaning.
func writeUnit(b *strings.Builder, u rune, inClass bool) {
	switch {
	case u >= 'a' && u <= 'z', u >= 'A' && u <= 'Z', u >= '0' && u <= '9', u == ' ', u == '_':
		b.WriteRune(u)
	case strings.ContainsRune(`\^$.|?*+()[]{}/`, u), inClass && u == '-':
		// escapes that are valid with and without the u flag
		b.WriteByte('\\')
		b.WriteRune(u)
	case u > 0x20 && u < 0x7F:
		b.WriteRune(u)
	default:
		fmt.Fprintf(b, `\u%04X`, u)
	}
}

// writeClass writes a class of runes (RE2's sorted lo, hi pairs) as code
// units: the BMP part without surrogates as one ECMAScript class, and every
// astral range as surrogate pairs, so that one rune is one match.
func writeClass(b *strings.Builder, ranges []rune) {
	var bmp []rune
	astral := map[rune][]rune{} // high surrogate -> low ranges
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		bmp = appendBMP(bmp, lo, hi)
		for r := max(lo, bmpMax+1); r <= hi; {
			h, l := utf16.EncodeRune(r)
			end := min(hi, r|0x3FF) // last rune with the same high surrogate
			_, le := utf16.EncodeRune(end)
			astral[h] = append(astral[h], l, le)
			r = end + 1
		}
	}
	alts := astralAlternatives(astral)
	switch {
	case len(bmp) == 0 && len(alts) == 0:
		b.WriteString(`[^\s\S]`)
	case len(alts) == 0:
		writeBMPClass(b, bmp)
	default:
		b.WriteString("(?:")
		if len(bmp) > 0 {
			writeBMPClass(b, bmp)
			b.WriteString("|")
		}
		b.WriteString(strings.Join(alts, "|"))
		b.WriteString(")")
	}
}

// appendBMP adds the BMP part of lo..hi, leaving out the surrogates (a
// string decoded from JSON into Go holds none).
func appendBMP(bmp []rune, lo, hi rune) []rune {
	hi = min(hi, bmpMax)
	if lo > hi {
		return bmp
	}
	if lo < surrogateMin && hi >= surrogateMin {
		bmp = append(bmp, lo, surrogateMin-1)
		lo = surrogateMax + 1
	} else if lo >= surrogateMin && lo <= surrogateMax {
		lo = surrogateMax + 1
	}
	if hi >= surrogateMin && hi <= surrogateMax {
		return bmp
	}
	if lo <= hi {
		bmp = append(bmp, lo, hi)
	}
	return bmp
}

// astralAlternatives groups the low-surrogate ranges by high surrogate, and
// runs of high surrogates whose whole block is in the class into one pair
// of classes.
func astralAlternatives(astral map[rune][]rune) []string {
	var highs []rune
	for h := range astral {
		highs = append(highs, h)
	}
	sort.Slice(highs, func(i, j int) bool { return highs[i] < highs[j] })
	full := func(h rune) bool {
		l := astral[h]
		return len(l) == 2 && l[0] == 0xDC00 && l[1] == 0xDFFF
	}
	var alts []string
	for i := 0; i < len(highs); i++ {
		h := highs[i]
		var b strings.Builder
		if full(h) {
			j := i
			for j+1 < len(highs) && highs[j+1] == highs[j]+1 && full(highs[j+1]) {
				j++
			}
			writeBMPClass(&b, []rune{h, highs[j]})
			writeBMPClass(&b, []rune{0xDC00, 0xDFFF})
			i = j
		} else {
			writeUnit(&b, h, false)
			writeBMPClass(&b, astral[h])
		}
		alts = append(alts, b.String())
	}
	return alts
}

// writeBMPClass writes ranges of code units as one class (or one unit).
func writeBMPClass(b *strings.Builder, ranges []rune) {
	if len(ranges) == 2 && ranges[0] == ranges[1] {
		writeUnit(b, ranges[0], false)
		return
	}
	b.WriteString("[")
	for i := 0; i+1 < len(ranges); i += 2 {
		writeUnit(b, ranges[i], true)
		if ranges[i+1] != ranges[i] {
			if ranges[i+1] > ranges[i]+1 {
				b.WriteString("-")
			}
			writeUnit(b, ranges[i+1], true)
		}
	}
	b.WriteString("]")
}

// emptyWidth reports the operators that match a position, not a character.
func emptyWidth(op syntax.Op) bool {
	switch op {
	case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary, syntax.OpEmptyMatch:
		return true
	}
	return false
}

// isAtom reports a piece a quantifier applies to as a whole: one unit
// ("a", "\\.", "\\u00E9") or one class.
func isAtom(s string) bool {
	switch {
	case len(s) == 1 && s != "\\":
		return true
	case len(s) == 2 && s[0] == '\\', len(s) == 6 && strings.HasPrefix(s, `\u`):
		return true
	case len(s) < 2 || s[0] != '[':
		return false
	}
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case ']':
			return i == len(s)-1
		}
	}
	return false
}
