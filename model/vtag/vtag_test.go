package vtag

import (
	"strconv"
	"strings"
	"testing"
)

// describe renders a parsed level in chain order, independently of
// Tag.String, so that the tables below spell out what the parser must see:
// every term with its unescaped parameter (quoted) and byte offset, the omit
// keyword where it was written, dive and keys blocks.
func describe(lv *Level, offsets bool) string {
	var out []string
	at := func(s string, off int) string {
		if offsets {
			return s + "@" + strconv.Itoa(off)
		}
		return s
	}
	if lv.StructOnly {
		out = append(out, "structonly")
	}
	if lv.NoStructLevel {
		out = append(out, "nostructlevel")
	}
	omit := func(i int) {
		if lv.Omit != OmitNever && lv.OmitIndex == i {
			out = append(out, at(lv.Omit.String(), lv.OmitOffset))
		}
	}
	for i, c := range lv.Checks {
		omit(i)
		var alts []string
		for _, t := range c.Or {
			s := t.Name
			if t.HasEq {
				s += "=" + strconv.Quote(t.Param)
			}
			alts = append(alts, at(s, t.Offset))
		}
		out = append(out, strings.Join(alts, "|"))
	}
	omit(len(lv.Checks))
	if lv.Dive != nil {
		out = append(out, at("dive", lv.DiveOffset))
		if lv.Keys != nil {
			out = append(out, at("keys", lv.KeysOffset)+"{"+describe(lv.Keys, offsets)+"}")
		}
		if d := describe(lv.Dive, offsets); d != "" {
			out = append(out, d)
		}
	}
	return strings.Join(out, " ")
}

func describeTag(t *Tag, offsets bool) string {
	if t.Skip {
		return "SKIP"
	}
	return describe(t.Root, offsets)
}

func TestParse(t *testing.T) {
	tests := []struct {
		tag, want string
	}{
		{"", ""},
		{"-", "SKIP"},
		{"required", "required@0"},
		{"required,min=1,max=10", `required@0 min="1"@9 max="10"@15`},
		{"min=", `min=""@0`},
		// '|' joins alternatives into one check; '=' splits at the first one
		{"rgb|rgba|hexcolor", "rgb@0|rgba@4|hexcolor@9"},
		{"len=3|eq=a=b", `len="3"@0|eq="a=b"@6`},
		// omitempty anywhere: checks before it run on every value
		{"omitempty,min=1", `omitempty@0 min="1"@10`},
		{"min=1,omitempty,max=3", `min="1"@0 omitempty@6 max="3"@16`},
		{"required,omitempty", "required@0 omitempty@9"},
		{"omitnil,gt=0", `omitnil@0 gt="0"@8`},
		{"omitzero,len=4", `omitzero@0 len="4"@9`},
		// the same omit keyword again changes nothing in validator
		{"omitempty,min=1,omitempty", `omitempty@0 min="1"@10`},
		// validator's quoting: 'a b' is one value, but the parser keeps the
		// parameter verbatim for the keyword to split
		{"oneof=card sepa 'wire transfer'", `oneof="card sepa 'wire transfer'"@0`},
		// 0x2C and 0x7C stand for ',' and '|' inside parameters
		{"contains=a0x2Cb,excludes=0x7C", `contains="a,b"@0 excludes="|"@16`},
		{"startswith=0x2C0x7C|endswith=x", `startswith=",|"@0|endswith="x"@20`},
		// dive: what follows checks each element
		{"required,dive,min=1", `required@0 dive@9 min="1"@14`},
		{"max=3,dive,omitempty,len=2", `max="3"@0 dive@6 omitempty@11 len="2"@21`},
		{"dive,dive,required", "dive@0 dive@5 required@10"},
		{"dive", "dive@0"},
		// keys ... endkeys right after dive: checks on map keys
		{"dive,keys,min=1,max=63,endkeys,max=256", `dive@0 keys@5{min="1"@10 max="63"@16} max="256"@31`},
		{"omitempty,max=16,dive,keys,alpha,endkeys", `omitempty@0 max="16"@10 dive@17 keys@22{alpha@27}`},
		{"dive,keys,endkeys", "dive@0 keys@5{}"},
		{"dive,keys,dive,min=1,endkeys,required", `dive@0 keys@5{dive@10 min="1"@15} required@29`},
		{"dive,keys,omitempty,len=2,endkeys,dive,required", `dive@0 keys@5{omitempty@10 len="2"@20} dive@34 required@39`},
		{"structonly,required", "structonly required@11"},
		{"nostructlevel", "nostructlevel"},
		{"required_if=Method card", `required_if="Method card"@0`},
	}
	for _, tt := range tests {
		tag, errs := Parse(tt.tag)
		if len(errs) > 0 {
			t.Errorf("Parse(%q): unexpected errors %v", tt.tag, errs)
			continue
		}
		if got := describeTag(tag, true); got != tt.want {
			t.Errorf("Parse(%q)\n got %s\nwant %s", tt.tag, got, tt.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	type want struct {
		offset int
		msg    string // a substring of the message
	}
	tests := []struct {
		tag  string
		want []want
	}{
		{"required,", []want{{9, "empty keyword"}}},
		{",required", []want{{0, "empty keyword"}}},
		{"min=1,,max=2", []want{{6, "empty keyword"}}},
		{"a||b", []want{{2, "empty keyword"}}},
		{"rgb|", []want{{4, "empty keyword"}}},
		{"=5", []want{{0, "empty keyword"}}},
		{"required, min=1", []want{{9, `" min" contains a space`}}},
		{"keys,min=1,endkeys", []want{{0, "'keys' must come right after 'dive'"}, {11, "'endkeys' without a matching 'keys'"}}},
		{"required,keys", []want{{9, "right after 'dive'"}}},
		{"dive,min=1,keys,endkeys", []want{{11, "right after 'dive'"}, {16, "without a matching 'keys'"}}},
		{"dive,keys,min=1", []want{{10, "'keys' without a matching 'endkeys'"}}},
		{"dive,keys", []want{{5, "'keys' without a matching 'endkeys'"}}},
		{"endkeys", []want{{0, "without a matching 'keys'"}}},
		{"required,-", []want{{9, "'-' skips the whole field"}}},
		{"-,required", []want{{0, "'-' skips the whole field"}}},
		{"omitempty,omitnil", []want{{10, `"omitnil" repeats "omitempty"`}}},
		// every error of a tag is reported, in order, in one pass
		{"min=1,,required, max=2,keys", []want{{6, "empty keyword"}, {16, "contains a space"}, {23, "right after 'dive'"}}},
	}
	for _, tt := range tests {
		_, errs := Parse(tt.tag)
		if len(errs) != len(tt.want) {
			t.Errorf("Parse(%q): got %d errors %v, want %d", tt.tag, len(errs), errs, len(tt.want))
			continue
		}
		for i, w := range tt.want {
			if errs[i].Offset != w.offset || !strings.Contains(errs[i].Msg, w.msg) {
				t.Errorf("Parse(%q) error %d = %v, want offset %d and %q", tt.tag, i, errs[i], w.offset, w.msg)
			}
		}
	}
}

func TestOmitString(t *testing.T) {
	for o, want := range map[Omit]string{OmitNever: "", OmitEmpty: "omitempty", OmitNil: "omitnil", OmitZero: "omitzero"} {
		if got := o.String(); got != want {
			t.Errorf("Omit(%d).String() = %q, want %q", o, got, want)
		}
	}
}

// TestStringRoundTrip checks String on hand-picked tags; FuzzParse checks
// the same property on generated ones.
func TestStringRoundTrip(t *testing.T) {
	for _, tag := range []string{
		"-", "", "required", "min=1,omitempty,max=3", "omitempty", "contains=a0x2Cb|excludes=0x7C",
		"dive,keys,min=1,endkeys,required", "structonly,nostructlevel,required", "max=3,dive,omitnil,dive,len=2",
		"oneof='a b' c", "eq=", "dive,keys,dive,keys,endkeys,endkeys",
	} {
		if _, errs := Parse(tag); len(errs) > 0 {
			t.Fatalf("Parse(%q): %v", tag, errs)
		}
		checkRoundTrip(t, tag)
	}
}

func checkRoundTrip(t *testing.T, tag string) {
	t.Helper()
	parsed, errs := Parse(tag)
	if len(errs) > 0 {
		return
	}
	s := parsed.String()
	again, errs := Parse(s)
	if len(errs) > 0 {
		t.Fatalf("Parse(%q).String() = %q, which does not parse: %v", tag, s, errs)
	}
	if a, b := describeTag(parsed, false), describeTag(again, false); a != b {
		t.Fatalf("round trip of %q through %q changed the checks:\n %s\n %s", tag, s, a, b)
	}
}

// checkOffsets verifies that every recorded offset points at what it names
// in the tag text, so that diagnostics land on the right column.
func checkOffsets(t *testing.T, tag string, lv *Level) {
	t.Helper()
	at := func(off int, word string) {
		t.Helper()
		if off < 0 || off > len(tag) || !strings.HasPrefix(tag[off:], word) {
			t.Fatalf("tag %q: offset %d does not point at %q", tag, off, word)
		}
	}
	for _, c := range lv.Checks {
		at(c.Offset, c.Or[0].Name)
		for _, term := range c.Or {
			want := term.Name
			if term.HasEq {
				want += "="
			}
			at(term.Offset, want)
		}
	}
	if lv.Omit != OmitNever {
		at(lv.OmitOffset, lv.Omit.String())
	}
	if lv.Dive != nil {
		at(lv.DiveOffset, "dive")
		checkOffsets(t, tag, lv.Dive)
	}
	if lv.Keys != nil {
		at(lv.KeysOffset, "keys")
		checkOffsets(t, tag, lv.Keys)
	}
}

func FuzzParse(f *testing.F) {
	// The checked-in corpus under testdata/fuzz/FuzzParse holds the tricky
	// seeds; these keep the target useful without it.
	for _, s := range []string{"required,min=1", "omitempty,dive,keys,len=2,endkeys,max=3", "oneof='a b' c|eq=0x2C"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tag string) {
		parsed, errs := Parse(tag)
		if parsed == nil || parsed.Root == nil {
			t.Fatalf("Parse(%q) returned no tag", tag)
		}
		for _, e := range errs {
			if e.Offset < 0 || e.Offset > len(tag) {
				t.Fatalf("Parse(%q): error offset %d outside the tag", tag, e.Offset)
			}
		}
		checkAgainstValidator(t, tag, errs)
		if len(errs) > 0 {
			_ = parsed.String() // must not panic on a partial parse either
			return
		}
		checkOffsets(t, tag, parsed.Root)
		checkRoundTrip(t, tag)
	})
}
