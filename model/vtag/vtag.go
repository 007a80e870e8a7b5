// Package vtag parses the `validate` struct tag with the grammar of
// go-playground/validator v10, and nothing more: it knows the structural
// keywords (omitempty, omitnil, omitzero, dive, keys, endkeys, "-",
// structonly, nostructlevel) and the separators (',' between checks, '|'
// between alternatives, '=' before a parameter, 0x2C and 0x7C escapes), and
// records the byte offset of every term so that callers can report
// file:line:col positions. Which keywords exist, and what they mean, is the
// job of the model's keyword registry.
//
// The parse follows validator's parseFieldTagsRecursive: a tag is split on
// ',' first; each piece is one check, itself split on '|' into alternatives,
// and each alternative on the first '=' into a name and a parameter.
// Everything after a "dive" applies to the elements of a slice, array or map;
// "keys,...,endkeys" right after a dive applies to map keys.
package vtag

import (
	"fmt"
	"strings"
)

// Term is one keyword use: `name` or `name=param`.
type Term struct {
	Name   string // keyword as written (an alias is not expanded here)
	Param  string // parameter with 0x2C and 0x7C unescaped
	HasEq  bool   // an '=' was written, even if the parameter is empty
	Offset int    // byte offset of Name in the tag value
}

func (t Term) String() string {
	if t.HasEq {
		return t.Name + "=" + t.Param
	}
	return t.Name
}

// Check is one comma-separated piece: one term, or several joined by '|'
// of which at least one must hold.
type Check struct {
	Or     []Term
	Offset int
}

// Omit says when validator skips the remaining checks of a level.
type Omit int

const (
	OmitNever Omit = iota
	OmitEmpty      // omitempty: the zero value (or nil) passes
	OmitNil        // omitnil: nil passes, a non-nil zero value is checked
	OmitZero       // omitzero: the zero value passes, nil slices and maps too
)

func (o Omit) String() string {
	return [...]string{"", "omitempty", "omitnil", "omitzero"}[o]
}

// Level holds the checks for one value: the field itself, or (after a dive)
// each element of it.
type Level struct {
	Omit       Omit
	OmitOffset int
	// OmitIndex is the number of checks written before the omit keyword:
	// those run on every value; the ones after it are skipped for an empty
	// value (validator evaluates the chain in order).
	OmitIndex     int
	Checks        []Check
	Keys          *Level // keys...endkeys: checks on map keys (set on the dive's level)
	KeysOffset    int
	Dive          *Level // checks on each element, nil without a dive
	DiveOffset    int
	StructOnly    bool
	NoStructLevel bool
}

// Tag is a parsed validate tag.
type Tag struct {
	Skip bool // the tag is "-": validator ignores the field
	Root *Level
}

// Error is a syntax error at a byte offset of the tag value.
type Error struct {
	Offset int
	Msg    string
}

func (e Error) Error() string { return fmt.Sprintf("offset %d: %s", e.Offset, e.Msg) }

// Parse parses a validate tag value. It never panics; all syntax errors are
// returned, each with the offset where it starts.
func Parse(tag string) (*Tag, []Error) {
	if tag == "-" {
		return &Tag{Skip: true, Root: &Level{}}, nil
	}
	if tag == "" {
		// validator runs no checks for an empty tag (but, unlike "-", still
		// descends into struct fields)
		return &Tag{Root: &Level{}}, nil
	}
	p := &parser{pieces: split(tag)}
	root := &Level{}
	p.level(root, false)
	return &Tag{Root: root}, p.errs
}

type piece struct {
	text   string
	offset int
}

func split(tag string) []piece {
	var out []piece
	start := 0
	for i := 0; i <= len(tag); i++ {
		if i == len(tag) || tag[i] == ',' {
			out = append(out, piece{tag[start:i], start})
			start = i + 1
		}
	}
	return out
}

type parser struct {
	pieces []piece
	i      int
	errs   []Error
}

func (p *parser) errorf(off int, format string, args ...any) {
	p.errs = append(p.errs, Error{off, fmt.Sprintf(format, args...)})
}

// level parses pieces into lv until the end (or, inside keys, until endkeys).
func (p *parser) level(lv *Level, inKeys bool) {
	for ; p.i < len(p.pieces); p.i++ {
		pc := p.pieces[p.i]
		switch pc.text {
		case "dive":
			lv.Dive, lv.DiveOffset = &Level{}, pc.offset
			p.i++
			p.afterDive(lv, inKeys)
			return
		case "keys":
			p.errorf(pc.offset, "'keys' must come right after 'dive'")
		case "endkeys":
			if inKeys {
				return
			}
			p.errorf(pc.offset, "'endkeys' without a matching 'keys'")
		case "omitempty", "omitnil", "omitzero":
			p.omit(lv, pc)
		case "structonly":
			lv.StructOnly = true
		case "nostructlevel":
			lv.NoStructLevel = true
		case "-":
			p.errorf(pc.offset, "'-' skips the whole field and must be the only thing in the tag")
		default:
			p.check(lv, pc)
		}
	}
	if inKeys {
		p.errorf(p.lastOffset(), "'keys' without a matching 'endkeys'")
	}
}

func (p *parser) lastOffset() int {
	if len(p.pieces) == 0 {
		return 0
	}
	return p.pieces[len(p.pieces)-1].offset
}

func (p *parser) omit(lv *Level, pc piece) {
	if lv.Omit != OmitNever {
		// validator accepts a repeated omit keyword; the same one again
		// changes nothing, a different one is not representable here.
		if lv.Omit.String() != pc.text {
			p.errorf(pc.offset, "%q repeats %q", pc.text, lv.Omit.String())
		}
		return
	}
	lv.Omit, lv.OmitOffset = map[string]Omit{"omitempty": OmitEmpty, "omitnil": OmitNil, "omitzero": OmitZero}[pc.text], pc.offset
	lv.OmitIndex = len(lv.Checks)
}

// afterDive parses an optional keys...endkeys block, then the element level.
func (p *parser) afterDive(lv *Level, inKeys bool) {
	if p.i < len(p.pieces) && p.pieces[p.i].text == "keys" {
		lv.Keys, lv.KeysOffset = &Level{}, p.pieces[p.i].offset
		p.i++
		p.level(lv.Keys, true)
		p.i++ // past endkeys
	}
	p.level(lv.Dive, inKeys)
}

func (p *parser) check(lv *Level, pc piece) {
	c := Check{Offset: pc.offset}
	off := pc.offset
	for _, alt := range strings.Split(pc.text, "|") {
		name, param, hasEq := strings.Cut(alt, "=")
		switch {
		case name == "":
			p.errorf(off, "empty keyword (stray ',', '|' or '=')")
		case strings.ContainsAny(name, " \t"):
			p.errorf(off, "keyword %q contains a space", name)
		default:
			c.Or = append(c.Or, Term{Name: name, Param: unescape(param), HasEq: hasEq, Offset: off})
		}
		off += len(alt) + 1
	}
	if len(c.Or) > 0 {
		lv.Checks = append(lv.Checks, c)
	}
}

func unescape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "0x2C", ","), "0x7C", "|")
}

// String renders the tag back in validator's grammar (escaping ',' and '|'
// in parameters), so that Parse(t.String()) describes the same checks.
func (t *Tag) String() string {
	if t.Skip {
		return "-"
	}
	return strings.Join(t.Root.pieces(), ",")
}

func (lv *Level) pieces() []string {
	var out []string
	if lv.StructOnly {
		out = append(out, "structonly")
	}
	if lv.NoStructLevel {
		out = append(out, "nostructlevel")
	}
	for i, c := range lv.Checks {
		if lv.Omit != OmitNever && i == lv.OmitIndex {
			out = append(out, lv.Omit.String())
		}
		alts := make([]string, len(c.Or))
		for i, t := range c.Or {
			alts[i] = t.Name
			if t.HasEq {
				alts[i] += "=" + escape(t.Param)
			}
		}
		out = append(out, strings.Join(alts, "|"))
	}
	if lv.Omit != OmitNever && lv.OmitIndex == len(lv.Checks) {
		out = append(out, lv.Omit.String())
	}
	if lv.Dive != nil {
		out = append(out, "dive")
		if lv.Keys != nil {
			out = append(out, "keys")
			out = append(out, lv.Keys.pieces()...)
			out = append(out, "endkeys")
		}
		out = append(out, lv.Dive.pieces()...)
	}
	return out
}

func escape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, ",", "0x2C"), "|", "0x7C")
}
