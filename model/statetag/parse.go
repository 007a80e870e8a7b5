package statetag

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Spec is a parsed state tag: what the text says, before it is checked
// against the phase type.
type Spec struct {
	Initial     *Name  // nil when the tag has no initial= clause
	Terminal    []Name // explicit terminal states (terminal=)
	Events      []Name // declared events (events=); nil when not declared
	Transitions []TransitionClause
}

// Name is a state, event or guard name and the byte offset of its first
// character in the tag value.
type Name struct {
	Text string
	Off  int
}

// TransitionClause is one transition clause: one or more sources, a target, the
// event and an optional guard.
type TransitionClause struct {
	From  []Name
	To    Name
	Event Name
	Guard *Name
}

// SyntaxError is a problem at a byte offset of the tag value.
type SyntaxError struct {
	Off int
	Msg string
}

func (e SyntaxError) Error() string { return fmt.Sprintf("offset %d: %s", e.Off, e.Msg) }

// Parse reads a state tag. It never panics; it returns every syntax error it
// finds (a clause with an error is skipped, the others are kept).
func Parse(tag string) (*Spec, []SyntaxError) {
	p := &parser{src: tag, spec: &Spec{}}
	if strings.TrimSpace(tag) == "" {
		return p.spec, nil
	}
	for start := 0; start <= len(tag); {
		end := strings.IndexByte(tag[start:], ';')
		if end < 0 {
			end = len(tag)
		} else {
			end += start
		}
		p.clause(start, end)
		start = end + 1
	}
	return p.spec, p.errs
}

type parser struct {
	src  string
	spec *Spec
	errs []SyntaxError
	// seen remembers the offset of each key clause, to refuse repeats.
	seen map[string]int
	// pos and end delimit the clause being read.
	pos, end int
}

// errSkip abandons a clause after its first error.
type errSkip struct{}

func (p *parser) fail(off int, format string, args ...any) {
	p.errs = append(p.errs, SyntaxError{off, fmt.Sprintf(format, args...)})
	panic(errSkip{})
}

func (p *parser) clause(start, end int) {
	p.pos, p.end = start, end
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(errSkip); !ok {
				panic(r)
			}
		}
	}()
	p.space()
	if p.pos == p.end {
		if end < len(p.src) {
			p.fail(p.pos, "empty clause")
		}
		return // a trailing ";" is allowed
	}
	first := p.word("a state or initial=, terminal=, events=")
	p.space()
	if p.peek() == '=' && isKey(first.Text) {
		p.pos++
		p.keyClause(first)
	} else {
		p.transition(first)
	}
	p.space()
	if p.pos < p.end {
		p.fail(p.pos, "unexpected %q: a clause ends at ';'", p.rest())
	}
}

func (p *parser) keyClause(key Name) {
	if p.seen == nil {
		p.seen = map[string]int{}
	}
	if _, dup := p.seen[key.Text]; dup {
		p.fail(key.Off, "%s= is given twice", key.Text)
	}
	switch key.Text {
	case "initial":
		p.space()
		s := p.word("the initial state")
		p.spec.Initial = &s
	case "terminal":
		p.spec.Terminal = p.list("a terminal state", p.word)
	case "events":
		p.spec.Events = p.list("an event", p.ident)
	}
	p.seen[key.Text] = key.Off
}

func isKey(s string) bool { return s == "initial" || s == "terminal" || s == "events" }

func (p *parser) transition(first Name) {
	from := []Name{first}
	for p.space(); p.peek() == '|'; p.space() {
		p.pos++
		p.space()
		from = append(from, p.word("a source state after '|'"))
	}
	if len(from) == 1 && p.peek() == '=' && !strings.HasPrefix(p.src[p.pos:p.end], "=>") {
		p.fail(first.Off, "unknown key %q: want initial=, terminal= or events=", first.Text)
	}
	if !strings.HasPrefix(p.src[p.pos:p.end], "->") {
		p.fail(p.pos, "want '->' after the source state %q, have %q", from[len(from)-1].Text, p.rest())
	}
	p.pos += 2
	p.space()
	t := TransitionClause{From: from, To: p.word("the target state after '->'")}
	p.space()
	if p.peek() != ':' {
		p.fail(p.pos, "want ':' and an event after the target state %q, have %q", t.To.Text, p.rest())
	}
	p.pos++
	p.space()
	t.Event = p.ident("the event after ':'")
	p.space()
	if p.peek() == '[' {
		p.pos++
		p.space()
		g := p.ident("a guard after '['")
		t.Guard = &g
		p.space()
		if p.peek() != ']' {
			p.fail(p.pos, "want ']' after the guard %q, have %q", g.Text, p.rest())
		}
		p.pos++
	}
	p.spec.Transitions = append(p.spec.Transitions, t)
}

// list reads item { "|" item }.
func (p *parser) list(what string, item func(string) Name) []Name {
	p.space()
	out := []Name{item(what)}
	for p.space(); p.peek() == '|'; p.space() {
		p.pos++
		p.space()
		out = append(out, item(what+" after '|'"))
	}
	return out
}

// word reads a state name: letters, digits and _ . - / + @, stopping before "->".
func (p *parser) word(what string) Name {
	start := p.pos
	for p.pos < p.end {
		r, size := utf8.DecodeRuneInString(p.src[p.pos:p.end])
		if r == '-' && strings.HasPrefix(p.src[p.pos:p.end], "->") || !stateRune(r) {
			break
		}
		p.pos += size
	}
	if p.pos == start {
		p.fail(start, "want %s, have %q", what, p.rest())
	}
	return Name{p.src[start:p.pos], start}
}

func stateRune(r rune) bool {
	return r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("_.-/+@", r))
}

// ident reads an exported Go identifier (events and guards become Go names).
func (p *parser) ident(what string) Name {
	start := p.pos
	for p.pos < p.end {
		c := p.src[p.pos]
		if !(c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			break
		}
		p.pos++
	}
	if p.pos == start {
		p.fail(start, "want %s, have %q", what, p.rest())
	}
	n := Name{p.src[start:p.pos], start}
	if n.Text[0] < 'A' || n.Text[0] > 'Z' {
		p.fail(start, "%q must start with an upper-case ASCII letter: it becomes an exported Go name", n.Text)
	}
	return n
}

func (p *parser) space() {
	for p.pos < p.end && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t') {
		p.pos++
	}
}

func (p *parser) peek() byte {
	if p.pos < p.end {
		return p.src[p.pos]
	}
	return 0
}

// rest is the remainder of the clause for a message ("end of clause" when empty).
func (p *parser) rest() string {
	r := strings.TrimSpace(p.src[p.pos:p.end])
	if r == "" {
		return "end of clause"
	}
	if len(r) > 20 {
		r = r[:20] + "..."
	}
	return r
}

// String renders the spec in canonical form: initial, terminal, events,
// then the transitions, separated by ";" without spaces.
func (s *Spec) String() string {
	var parts []string
	if s.Initial != nil {
		parts = append(parts, "initial="+s.Initial.Text)
	}
	if len(s.Terminal) > 0 {
		parts = append(parts, "terminal="+joinNames(s.Terminal))
	}
	if len(s.Events) > 0 {
		parts = append(parts, "events="+joinNames(s.Events))
	}
	for _, t := range s.Transitions {
		c := joinNames(t.From) + "->" + t.To.Text + ":" + t.Event.Text
		if t.Guard != nil {
			c += "[" + t.Guard.Text + "]"
		}
		parts = append(parts, c)
	}
	return strings.Join(parts, ";")
}

func joinNames(ns []Name) string {
	var b strings.Builder
	for i, n := range ns {
		if i > 0 {
			b.WriteByte('|')
		}
		b.WriteString(n.Text)
	}
	return b.String()
}
