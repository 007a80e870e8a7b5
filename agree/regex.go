package agree

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode"
	"unicode/utf8"
)

// patternExamples returns strings that match pattern (a short and a long
// one, when they differ) and near misses derived from them, so that every
// pattern keyword is probed on both sides of its boundary without a table
// written per keyword.
func patternExamples(pattern string) (matches, misses []string) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, nil
	}
	tree, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil, nil
	}
	tree = tree.Simplify()
	seen := map[string]bool{}
	for _, long := range []bool{false, true} {
		s := example(tree, long)
		if !seen[s] && re.MatchString(s) {
			seen[s] = true
			matches = append(matches, s)
		}
	}
	for _, m := range matches {
		for _, x := range mutations(m) {
			if !seen[x] {
				seen[x] = true
				misses = append(misses, x)
			}
		}
	}
	return matches, misses
}

// example builds one string the tree matches: the shortest choice of every
// repetition and the first alternative, or (long) more repetitions and the
// last alternative.
func example(re *syntax.Regexp, long bool) string {
	var b strings.Builder
	write(&b, re, long)
	return b.String()
}

func write(b *strings.Builder, re *syntax.Regexp, long bool) {
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			b.WriteRune(r)
		}
	case syntax.OpCharClass:
		b.WriteRune(pickRune(re.Rune, long))
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		b.WriteRune('a')
	case syntax.OpCapture:
		write(b, re.Sub[0], long)
	case syntax.OpStar, syntax.OpQuest:
		if long {
			write(b, re.Sub[0], long)
		}
	case syntax.OpPlus:
		write(b, re.Sub[0], long)
		if long {
			write(b, re.Sub[0], long)
		}
	case syntax.OpRepeat:
		n := re.Min
		if long && re.Max > n && re.Max <= 8 {
			n = re.Max
		} else if long && re.Max == -1 {
			n++
		}
		for range n {
			write(b, re.Sub[0], long)
		}
	case syntax.OpConcat:
		for _, s := range re.Sub {
			write(b, s, long)
		}
	case syntax.OpAlternate:
		if long {
			write(b, re.Sub[len(re.Sub)-1], long)
		} else {
			write(b, re.Sub[0], long)
		}
	}
}

// pickRune chooses a printable rune from a class given as [lo, hi] pairs,
// preferring letters and digits.
func pickRune(ranges []rune, long bool) rune {
	var candidates []rune
	for i := 0; i+1 < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		for _, r := range []rune{'a', 'A', '0', lo, hi} {
			if r >= lo && r <= hi && unicode.IsPrint(r) && utf8.ValidRune(r) {
				candidates = append(candidates, r)
			}
		}
	}
	if len(candidates) == 0 {
		if len(ranges) > 0 {
			return ranges[0]
		}
		return 'a'
	}
	if long {
		return candidates[len(candidates)-1]
	}
	return candidates[0]
}

// mutations are near misses of a matching string: one rune shorter or
// longer, a foreign character at either end, a changed case, a multi-byte
// letter in place of the first rune.
func mutations(s string) []string {
	out := []string{s + "!", "!" + s, " " + s, s + " ", strings.ToUpper(s), strings.ToLower(s), s + s}
	if r := []rune(s); len(r) > 0 {
		out = append(out, string(r[:len(r)-1]), string(r[1:]), "é"+string(r[1:]), string(r[:len(r)-1])+"\u0301")
	}
	return out
}
