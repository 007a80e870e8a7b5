package yamlout

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	yamlv2 "sigs.k8s.io/yaml/goyaml.v2"
)

var words = strings.Repeat("word ", 20)

// TestScalarStyles: each rule by which yaml.v2 picks a scalar's style, or
// writes it, with the bytes yaml.Marshal gives for {k: value}.
func TestScalarStyles(t *testing.T) {
	for _, c := range []struct {
		rule  string
		value any
		want  string
	}{
		{"plain when nothing stops it", "abc", "k: abc\n"},
		{"bool words are quoted", "true", "k: \"true\"\n"},
		{"YAML 1.1 bool words are quoted", "yes", "k: \"yes\"\n"},
		{"on is a bool", "on", "k: \"on\"\n"},
		{"one letter bools", "n", "k: \"n\"\n"},
		{"null is quoted", "null", "k: \"null\"\n"},
		{"tilde is null", "~", "k: \"~\"\n"},
		{"the empty string is null", "", "k: \"\"\n"},
		{"an int is quoted", "1", "k: \"1\"\n"},
		{"hex ints", "0x10", "k: \"0x10\"\n"},
		{"underscores in ints", "1_000", "k: \"1_000\"\n"},
		{"binary ints", "0b101", "k: \"0b101\"\n"},
		{"a trailing underscore is dropped before reading an int", "1_", "k: \"1_\"\n"},
		{"underscores are dropped before reading a float", "1_0.5", "k: \"1_0.5\"\n"},
		{"0b then a signed binary number is an int", "0b+1", "k: \"0b+1\"\n"},
		{"negative binary ints", "-0b11", "k: \"-0b11\"\n"},
		{"exponent floats", "1e3", "k: \"1e3\"\n"},
		{"floats", "1.5", "k: \"1.5\"\n"},
		{"floats starting with a dot", ".5", "k: \".5\"\n"},
		{"infinity", ".inf", "k: \".inf\"\n"},
		{"signed infinity", "+.Inf", "k: \"+.Inf\"\n"},
		{"timestamps", "2024-01-02", "k: \"2024-01-02\"\n"},
		{"base 60 floats", "1:20", "k: \"1:20\"\n"},
		{"the merge key stays plain", "<<", "k: <<\n"},
		{"comment indicator first", "#x", "k: '#x'\n"},
		{"anchor indicator first", "&a", "k: '&a'\n"},
		{"alias indicator first", "*a", "k: '*a'\n"},
		{"tag indicator first", "!a", "k: '!a'\n"},
		{"literal indicator first", "|a", "k: '|a'\n"},
		{"folded indicator first", ">a", "k: '>a'\n"},
		{"directive indicator first", "%a", "k: '%a'\n"},
		{"reserved @ first", "@a", "k: '@a'\n"},
		{"reserved backtick first", "`a", "k: '`a'\n"},
		{"a single quote first is doubled", "'a", "k: '''a'\n"},
		{"a double quote first", "\"a", "k: '\"a'\n"},
		{"flow indicators first", "[a", "k: '[a'\n"},
		{"flow mapping first", "{a", "k: '{a'\n"},
		{"a comma first", ",a", "k: ',a'\n"},
		{"sequence entry first", "- a", "k: '- a'\n"},
		{"a dash not followed by a space", "-a", "k: -a\n"},
		{"mapping key indicator first", "? a", "k: '? a'\n"},
		{"a question mark not followed by a space", "?a", "k: ?a\n"},
		{"a colon not followed by a space", ":a", "k: :a\n"},
		{"value indicator first", ": a", "k: ': a'\n"},
		{"colon space inside", "a: b", "k: 'a: b'\n"},
		{"colon inside", "a:b", "k: a:b\n"},
		{"colon last", "a:", "k: 'a:'\n"},
		{"space hash inside", "a #b", "k: 'a #b'\n"},
		{"hash inside", "a#b", "k: a#b\n"},
		{"document start first", "---x", "k: '---x'\n"},
		{"document end first", "...x", "k: '...x'\n"},
		{"leading space", " a", "k: ' a'\n"},
		{"trailing space", "a ", "k: 'a '\n"},
		{"a quote inside stays plain", "it's", "k: it's\n"},
		{"tab is escaped", "a\tb", "k: \"a\\tb\"\n"},
		{"control characters are escaped as \\x", "a\x01b", "k: \"a\\x01b\"\n"},
		{"a leading BOM escapes every character", "\ufeffab", "k: \"\\uFEFF\\x61\\x62\"\n"},
		{"next line is escaped", "a\u0085b", "k: \"a\\Nb\"\n"},
		{"line separator breaks a single-quoted line", "a\u2028b", "k: 'a\u2028  b'\n"},
		{"no-break space is printable", "a\u00a0b", "k: a\u00a0b\n"},
		{"astral characters are escaped as \\U", "a😀b", "k: \"a\\U0001F600b\"\n"},
		{"a line feed makes a literal, stripped", "a\nb", "k: |-\n  a\n  b\n"},
		{"one final line feed is clipped", "a\n", "k: |\n  a\n"},
		{"two final line feeds are kept", "a\n\n", "k: |+\n  a\n\n"},
		{"a lone line feed is kept", "\n", "k: |2+\n\n"},
		{"a leading space gives an indentation hint", " a\nb", "k: |2-\n   a\n  b\n"},
		{"a leading line feed gives an indentation hint", "\na", "k: |2-\n\n  a\n"},
		{"space before a break is double-quoted", "a \nb", "k: \"a \\nb\"\n"},
		{"space after a break stays literal", "a\n b", "k: |-\n  a\n   b\n"},
		{"a trailing space is not literal", "a\nb ", "k: \"a\\nb \"\n"},
		{"carriage return", "a\r\nb", "k: \"a\\r\\nb\"\n"},
		{"plain folds past 80 columns", words + "end", "k: word word word word word word word word word word word word word word word word\n  word word word word end\n"},
		{"single-quoted folds", "'" + words + "'", "k: '''word word word word word word word word word word word word word word word word\n  word word word word '''\n"},
		{"double-quoted folds", "a\t" + words, "k: \"a\\tword word word word word word word word word word word word word word word\n  word word word word word \"\n"},
		{"double-quoted folds before an escaped space", "a\t" + strings.Repeat("two  spaces ", 10), "k: \"a\\ttwo  spaces two  spaces two  spaces two  spaces two  spaces two  spaces two\n  \\ spaces two  spaces two  spaces two  spaces \"\n"},
		{"floats use the shortest g form", 1e6, "k: 1e+06\n"},
		{"plain floats", 1.5, "k: 1.5\n"},
		{"NaN", math.NaN(), "k: .nan\n"},
		{"+Inf", math.Inf(1), "k: .inf\n"},
		{"-Inf", math.Inf(-1), "k: -.inf\n"},
		{"small floats", 3e-7, "k: 3e-07\n"},
		{"int64", int64(1) << 40, "k: 1099511627776\n"},
		{"uint64", uint64(1) << 63, "k: 9223372036854775808\n"},
		{"bool", true, "k: true\n"},
		{"nil", nil, "k: null\n"},
	} {
		assertEmits(t, c.rule, map[string]any{"k": c.value}, c.want)
	}
}

// TestKeysAndCollections: key styles, long and multi-line keys, key
// order, empty collections, indentation of sequences.
func TestKeysAndCollections(t *testing.T) {
	for _, c := range []struct {
		rule  string
		value any
		want  string
	}{
		{"an empty key is quoted", map[string]any{"": 1}, "\"\": 1\n"},
		{"a key that reads as a bool is quoted", map[string]any{"true": 1}, "\"true\": 1\n"},
		{"a key that reads as an int is quoted", map[string]any{"1": 1}, "\"1\": 1\n"},
		{"a key of more than 128 bytes is a complex key", map[string]any{strings.Repeat("x", 129): 1}, "? " + strings.Repeat("x", 129) + "\n: 1\n"},
		{"a key of 128 bytes is simple", map[string]any{strings.Repeat("x", 128): 1}, strings.Repeat("x", 128) + ": 1\n"},
		{"a key on two lines is a complex literal key", map[string]any{"a\nb": 1}, "? |-\n  a\n  b\n: 1\n"},
		{"keys with spaces stay plain", map[string]any{"a b": 1}, "a b: 1\n"},
		{"keys are not folded", map[string]any{words + "end": 1}, words + "end: 1\n"},
		{"key indicators quote keys", map[string]any{"#a": 1}, "'#a': 1\n"},
		{"digits in keys compare as numbers", map[string]any{"k10": 1, "k9": 2, "k09": 3, "a": 4, "_": 5, "K": 6}, "_: 5\nK: 6\na: 4\nk9: 2\nk09: 3\nk10: 1\n"},
		{"a longer run of digits with a smaller number sorts first", map[string]any{"k02": 1, "k001": 2}, "k001: 2\nk02: 1\n"},
		{"non-letters sort before letters", map[string]any{"b": 1, "é": 2, "-": 3, "1": 4}, "'-': 3\n\"1\": 4\nb: 1\né: 2\n"},
		{"empty mapping", map[string]any{}, "{}\n"},
		{"empty sequence", []any{}, "[]\n"},
		{"empty collections as values", map[string]any{"a": []any{}, "b": map[string]any{}}, "a: []\nb: {}\n"},
		{"sequences in sequences and mappings", []any{[]any{1, []any{2}}, map[string]any{"a": 1, "b": []any{map[string]any{"c": 1}}}}, "- - 1\n  - - 2\n- a: 1\n  b:\n  - c: 1\n"},
		{"a root literal", "x\n", "|\n  x\n"},
		{"a root scalar", "plain", "plain\n"},
		{"a kept literal at the root ends with no document end marker", "a\n\n", "|+\n  a\n\n"},
		{"a document start marker as a string is quoted", "---", "'---'\n"},
		{"a document end marker as a string is quoted", "...", "'...'\n"},
		{"a root null", nil, "null\n"},
		{"scalars in a sequence in a mapping", map[string]any{"a": []any{"x\ny", words + words}}, "a:\n- |-\n  x\n  y\n- 'word word word word word word word word word word word word word word word word\n  word word word word word word word word word word word word word word word word\n  word word word word word word word word '\n"},
	} {
		assertEmits(t, c.rule, c.value, c.want)
	}
}

// TestIntransitiveKeyOrder: keys for which yaml.v2's order is not a total
// order (there its output follows map iteration) are written the same on
// every run, and read back as the same mapping.
func TestIntransitiveKeyOrder(t *testing.T) {
	m := map[string]any{"9": 1, "10": 2, "1a": 3, "b": 4}
	first, err := emitDocument(nil, m)
	if err != nil {
		t.Fatal(err)
	}
	for range 50 {
		m2 := map[string]any{}
		for k, v := range m {
			m2[k] = v
		}
		got, err := emitDocument(nil, m2)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, first) {
			t.Fatalf("%q then %q", first, got)
		}
	}
	assertSameValue(t, m, first)
}

// TestFallsBackToYAMLv2: values the emitter was not ported for (invalid
// UTF-8, which yaml.v2 writes as !!binary; other Go types) still get
// yaml.Marshal's bytes from Encode.
func TestFallsBackToYAMLv2(t *testing.T) {
	for _, v := range []any{
		map[string]any{"k": "\xff"},
		map[string]any{"\xff": 1},
		map[string]any{"k": []string{"a"}},
		map[string]any{"k": float32(0.1)},
		map[string]any{"k": map[string]int{"a": 1}},
	} {
		if _, err := emitDocument(nil, v); err != errUnsupported {
			t.Errorf("%#v: the emitter gave %v, want errUnsupported", v, err)
		}
		want, err := yamlv2.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Encode(v)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%#v:\n got %q\nwant %q", v, got, want)
		}
	}
}

func assertEmits(t *testing.T, rule string, v any, want string) {
	t.Helper()
	v2, err := yamlv2.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if string(v2) != want {
		t.Errorf("%s: yaml.Marshal gives %q, the table says %q", rule, v2, want)
	}
	got, err := emitDocument(nil, v)
	if err != nil {
		t.Fatalf("%s: %v", rule, err)
	}
	if string(got) != string(v2) {
		t.Errorf("%s:\n got %q\nwant %q", rule, got, v2)
	}
}

// FuzzEmitMatchesYAMLv2 writes a string in every place a document holds
// one (a value at several depths, in sequences, as a simple and a complex
// key), and a JSON document when the second input is one, with the
// direct emitter and with yaml.Marshal.
func FuzzEmitMatchesYAMLv2(f *testing.F) {
	for _, s := range []string{
		"plain", "true", "1e3", "0x10", "~", "", " lead", "trail ", "a: b", "a #b", "- x", "? x", "*a", "&a",
		"!t", "|x", ">x", "%x", "@x", "`x", "'q'", "\"q\"", "a\nb", "a\n", "a\n\n", "\n", " \n", "\t", "\x00",
		"\u0085", "\u2028", "\ufeff", "é", "😀", strings.Repeat("long words ", 12), strings.Repeat("x", 130),
		"2001-12-14", "1:30", "<<", "-.inf", "1_0", "+1", "0b1", "-0b1", "k10", "---", "...",
	} {
		f.Add(s, []byte(`{"a":[1,"2",{"b":null}],"c":{},"d":[],"e":1.5e300,"f":-1}`))
	}
	f.Fuzz(func(t *testing.T, s string, js []byte) {
		if !utf8Valid(s) {
			s = strings.ToValidUTF8(s, "?")
		}
		doc := map[string]any{
			s:                                   s,
			"a":                                 []any{s, map[string]any{s: []any{s}, "x": s}, []any{s, []any{s}}},
			"b":                                 map[string]any{"c": map[string]any{"d": s, "e": map[string]any{"f": map[string]any{"g": s}}}},
			strings.Repeat("long key ", 10) + s: map[string]any{s + "1": s, s + "10": 1, s + "9": []any{}},
		}
		for _, v := range []any{doc, s, []any{s, s}} {
			fuzzCompare(t, v)
		}
		var j any
		if json.Unmarshal(js, &j) == nil {
			v, err := Decode(js)
			if err != nil {
				t.Fatal(err)
			}
			fuzzCompare(t, typed(v))
		}
	})
}

func utf8Valid(s string) bool { return utf8.ValidString(s) }

// fuzzCompare compares bytes, or, where a mapping's keys have no total
// order in yaml.v2 (so its bytes follow map iteration), the values read
// back.
func fuzzCompare(t *testing.T, v any) {
	want, err := yamlv2.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	got, err := emitDocument(nil, v)
	if err == errUnsupported {
		return // invalid UTF-8 from the JSON input: Encode falls back
	}
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(got, want) {
		return
	}
	if !totalKeyOrder(v) {
		assertSameValue(t, v, got)
		return
	}
	i := firstDiff(got, want)
	t.Fatalf("first difference at byte %d:\n got %q\nwant %q", i, around(got, i), around(want, i))
}

// totalKeyOrder reports whether yaml.v2's key order is transitive on the
// keys of every mapping in v.
func totalKeyOrder(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]runeText, 0, len(x))
		for k, e := range x {
			if !totalKeyOrder(e) {
				return false
			}
			keys = append(keys, runeText(k))
		}
		for _, a := range keys {
			for _, b := range keys {
				for _, c := range keys {
					if keyLess(a, b) && keyLess(b, c) && !keyLess(a, c) {
						return false
					}
				}
			}
		}
	case []any:
		for _, e := range x {
			if !totalKeyOrder(e) {
				return false
			}
		}
	}
	return true
}

func assertSameValue(t *testing.T, v any, out []byte) {
	t.Helper()
	var got, want any
	if err := yamlv2.Unmarshal(out, &got); err != nil {
		t.Fatalf("%q: %v", out, err)
	}
	b, err := yamlv2.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := yamlv2.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%q reads back as %v, want %v", out, got, want)
	}
}

// TestNoLineWrapFallsBack: after yaml.FutureLineWrap (process-wide, so in
// a child process) yaml.v2 stops folding long lines, and Encode gives its
// bytes, not the port's folded ones.
func TestNoLineWrapFallsBack(t *testing.T) {
	if os.Getenv("YAMLOUT_FUTURE_LINE_WRAP") == "1" {
		yamlv2.FutureLineWrap()
		v := map[string]any{"k": words + words}
		want, err := yamlv2.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Encode(v)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) || bytes.Count(got, []byte("\n")) != 1 {
			t.Fatalf("got %q, yaml.Marshal without line wrapping gives %q", got, want)
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestNoLineWrapFallsBack$", "-test.count=1")
	cmd.Env = append(os.Environ(), "YAMLOUT_FUTURE_LINE_WRAP=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}
