package ecma

import (
	"regexp"
	"testing"
)

// TestGoSyntaxTranslates covers the Go syntax that ECMA-262 spells
// differently or not at all: each translation must compile as ECMAScript
// and give RE2's verdict on ASCII, BMP and astral strings.
func TestGoSyntaxTranslates(t *testing.T) {
	inputs := []string{"", "a", "A", "k", "K", "\u212a", "é", "日本", "😀", "😀😀", "a😀", "\U0001D400", "a\nb", "ab", "abc", "\u00a0", "x\x00"}
	for _, p := range []string{
		`^\x{1F600}$`, `^[\x{1F600}-\x{1F64F}]+$`, `^\x{00A0}`, `(?i)^k$`, `(?i)^[a-c]+$`, `\Aab\z`, `(?s)^a.b$`, `^a.b$`,
		`^.$`, `^[^a]$`, `^\pL+$`, `^\p{Greek}$`, `^[\p{L}\p{N}]{2}$`, `\bab\b`, `^(?P<x>a|b)+$`, `^a{2,3}?$`, `[^\x00-\x7F]`, `^$|x`,
	} {
		out, err := Translate(p)
		if err != nil {
			t.Errorf("%q: %v", p, err)
			continue
		}
		re, err := Compile(out)
		if err != nil {
			t.Errorf("%q -> %q does not compile: %v", p, out, err)
			continue
		}
		re2 := regexp.MustCompile(p)
		for _, s := range inputs {
			if want, got := re2.MatchString(s), re.MatchString(s); want != got {
				t.Errorf("%q -> %q on %q: RE2 %v, ECMAScript %v", p, out, s, want, got)
			}
		}
	}
}

// TestMultilineAnchorsRefused: (?m) has no ECMA-262 form without flags, so
// the caller must leave the pattern out and warn.
func TestMultilineAnchorsRefused(t *testing.T) {
	if out, err := Translate(`(?m)^a$`); err == nil {
		t.Fatalf("(?m)^a$ translated to %q; want an error", out)
	}
}

// TestQuantifiedAssertions: ECMA-262 refuses a quantifier on an assertion
// ("nothing to repeat"), where RE2 accepts it; regexp2 accepts it too, so the
// expected output is spelled out rather than compiled.
func TestQuantifiedAssertions(t *testing.T) {
	for p, want := range map[string]string{
		`^*a`:      `(?:)a`,
		`\bab\b+`:  `\bab\b`,
		`a$?`:      `a(?:)`,
		`\B{2}x`:   `\Bx`,
		`(?:^)*a`:  `(?:)a`,
		`^(a)+$`:   `^a+$`,
		`^(?:ab)*`: `^(?:ab)*`,
	} {
		if got, err := Translate(p); err != nil || got != want {
			t.Errorf("Translate(%q) = %q, %v; want %q", p, got, err, want)
		}
	}
}
