// The style a string asks the emitter for and the order of a mapping's
// keys, ported from go.yaml.in/yaml/v2 v2.4.4 (encode.go's stringv and
// isBase60Float, resolve.go's resolve and parseTimestamp, sorter.go's
// keyList.Less):
//
//	Copyright 2011-2016 Canonical Ltd.
//
//	Licensed under the Apache License, Version 2.0 (the "License");
//	you may not use this file except in compliance with the License.
//	You may obtain a copy of the License at
//
//	    http://www.apache.org/licenses/LICENSE-2.0
//
//	Unless required by applicable law or agreed to in writing, software
//	distributed under the License is distributed on an "AS IS" BASIS,
//	WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
//	See the License for the specific language governing permissions and
//	limitations under the License.

package yamlout

import (
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// stringStyle is the style encode.go's stringv asks for: literal for text
// with a line feed, plain when the text reads back as the same string,
// double-quoted otherwise. A string that is not UTF-8 is not handled
// (yaml.v2 writes it as !!binary base64).
func stringStyle(s string) (scalarStyle, bool) {
	if !utf8.ValidString(s) {
		return 0, false
	}
	switch {
	case strings.Contains(s, "\n"):
		return literalStyle, true
	case resolvesToString(s) && !isBase60Float(s):
		return plainStyle, true
	}
	return doubleQuotedStyle, true
}

// resolveHint is resolve.go's resolveTable: the first bytes that may start
// a value of another type than string.
var resolveHint = func() (t [256]byte) {
	t['+'], t['-'] = 'S', 'S'
	for _, c := range "0123456789" {
		t[c] = 'D'
	}
	for _, c := range "yYnNtTfFoO~" {
		t[c] = 'M'
	}
	t['.'] = '.'
	return t
}()

// resolveWords is resolve.go's resolveMap: words read as a bool, null or
// float. Its merge key "<<" is left out: '<' has no hint, so resolve never
// looks it up and "<<" stays plain.
var resolveWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range []string{
		"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON",
		"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF",
		"", "~", "null", "Null", "NULL",
		".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF",
	} {
		m[w] = true
	}
	return m
}()

var yamlStyleFloat = regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)

// resolvesToString reports whether resolve("", s) gives the !!str tag:
// the plain scalar s reads back as a string.
func resolvesToString(s string) bool {
	hint := byte('N')
	if s != "" {
		hint = resolveHint[s[0]]
	}
	if hint == 0 {
		return true
	}
	if resolveWords[s] {
		return false
	}
	switch hint {
	case '.':
		_, err := strconv.ParseFloat(s, 64)
		return err != nil
	case 'D', 'S':
		return !numberOrTimestamp(s)
	}
	return true
}

// numberOrTimestamp is the 'D' and 'S' branch of resolve: a timestamp,
// an int, a uint, a float or a 0b binary number, with underscores dropped.
func numberOrTimestamp(s string) bool {
	if _, ok := parseTimestamp(s); ok {
		return true
	}
	plain := strings.ReplaceAll(s, "_", "")
	if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
		return true
	}
	if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
		return true
	}
	if yamlStyleFloat.MatchString(plain) {
		if _, err := strconv.ParseFloat(plain, 64); err == nil {
			return true
		}
	}
	if strings.HasPrefix(plain, "0b") {
		if _, err := strconv.ParseInt(plain[2:], 2, 64); err == nil {
			return true
		}
		if _, err := strconv.ParseUint(plain[2:], 2, 64); err == nil {
			return true
		}
	} else if strings.HasPrefix(plain, "-0b") {
		if _, err := strconv.ParseInt("-"+plain[3:], 2, 64); err == nil {
			return true
		}
	}
	return false
}

var allowedTimestampFormats = []string{
	"2006-1-2T15:4:5.999999999Z07:00",
	"2006-1-2t15:4:5.999999999Z07:00",
	"2006-1-2 15:4:5.999999999",
	"2006-1-2",
}

// parseTimestamp is resolve.go's: four digits and a dash, then one of the
// formats time.Parse accepts.
func parseTimestamp(s string) (time.Time, bool) {
	i := 0
	for ; i < len(s); i++ {
		if c := s[i]; c < '0' || c > '9' {
			break
		}
	}
	if i != 4 || i == len(s) || s[i] != '-' {
		return time.Time{}, false
	}
	for _, format := range allowedTimestampFormats {
		if t, err := time.Parse(format, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

var base60float = regexp.MustCompile(`^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`)

// isBase60Float is encode.go's: YAML 1.1 sexagesimal numbers ("1:20")
// are quoted for other parsers.
func isBase60Float(s string) bool {
	if s == "" {
		return false
	}
	c := s[0]
	if !(c == '+' || c == '-' || c >= '0' && c <= '9') || strings.IndexByte(s, ':') < 0 {
		return false
	}
	return base60float.MatchString(s)
}

// sortedKeys lists m's keys in yaml.Marshal's order (keyList.Less: runs of
// digits compare as numbers, other characters before letters). Less is
// not transitive for every set of keys ("9" < "10" < "1a" < "9"); there
// yaml.v2's order follows Go's random map iteration, and here the keys
// are put in byte order first, so that the output is one of yaml.v2's and
// the same on every run.
func (e *emitter) sortedKeys(m map[string]any) ([]string, error) {
	keys := make([]string, 0, len(m))
	ascii := true
	for k := range m {
		keys = append(keys, k)
		ascii = ascii && isASCII(k)
	}
	slices.Sort(keys)
	if ascii {
		sort.Sort(asciiKeys(keys))
		return keys, nil
	}
	for _, k := range keys {
		if !utf8.ValidString(k) {
			return nil, errUnsupported
		}
	}
	rs := runeKeys{keys: keys, runes: make([][]rune, len(keys))}
	for i, k := range keys {
		rs.runes[i] = []rune(k)
	}
	sort.Sort(rs)
	return keys, nil
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// asciiKeys sorts keys that are all ASCII, where a byte is a rune.
type asciiKeys []string

func (l asciiKeys) Len() int      { return len(l) }
func (l asciiKeys) Swap(i, j int) { l[i], l[j] = l[j], l[i] }
func (l asciiKeys) Less(i, j int) bool {
	return keyLess(asciiText(l[i]), asciiText(l[j]))
}

// runeKeys sorts keys with their runes alongside.
type runeKeys struct {
	keys  []string
	runes [][]rune
}

func (l runeKeys) Len() int { return len(l.keys) }
func (l runeKeys) Swap(i, j int) {
	l.keys[i], l.keys[j] = l.keys[j], l.keys[i]
	l.runes[i], l.runes[j] = l.runes[j], l.runes[i]
}
func (l runeKeys) Less(i, j int) bool {
	return keyLess(runeText(l.runes[i]), runeText(l.runes[j]))
}

type asciiText string

func (t asciiText) at(i int) rune { return rune(t[i]) }
func (t asciiText) len() int      { return len(t) }

type runeText []rune

func (t runeText) at(i int) rune { return t[i] }
func (t runeText) len() int      { return len(t) }

// keyLess is sorter.go's keyList.Less for two strings, read rune by rune.
func keyLess[T interface {
	at(int) rune
	len() int
}](a, b T) bool {
	for i := 0; i < a.len() && i < b.len(); i++ {
		ar, br := a.at(i), b.at(i)
		if ar == br {
			continue
		}
		al, bl := unicode.IsLetter(ar), unicode.IsLetter(br)
		if al && bl {
			return ar < br
		}
		if al || bl {
			return bl
		}
		var ai, bi int
		var an, bn int64
		if ar == '0' || br == '0' {
			for j := i - 1; j >= 0 && unicode.IsDigit(a.at(j)); j-- {
				if a.at(j) != '0' {
					an, bn = 1, 1
					break
				}
			}
		}
		for ai = i; ai < a.len() && unicode.IsDigit(a.at(ai)); ai++ {
			an = an*10 + int64(a.at(ai)-'0')
		}
		for bi = i; bi < b.len() && unicode.IsDigit(b.at(bi)); bi++ {
			bn = bn*10 + int64(b.at(bi)-'0')
		}
		if an != bn {
			return an < bn
		}
		if ai != bi {
			return ai < bi
		}
		return ar < br
	}
	return a.len() < b.len()
}
