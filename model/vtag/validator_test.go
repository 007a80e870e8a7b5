package vtag

import (
	"fmt"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/go-playground/validator/v10"
)

// validator itself is the oracle for the grammar: a tag it parses must
// parse here without a syntax error, and a tag it rejects for its structure
// (not merely for an unknown keyword) must be rejected here too.

type verdict int

const (
	accepted       verdict = iota // validator parsed the tag
	unknownKeyword                // validator stopped at a name it does not know
	rejected                      // validator rejected the tag's structure
)

var oracle = validator.New()

// validatorVerdict runs the tag through validator. Panics raised while
// validator parses the tag are its grammar errors; panics raised later,
// while it validates the sample value (a keyword on the wrong kind, a bad
// parameter), say nothing about the grammar.
func validatorVerdict(tag string) (v verdict, msg string) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		if !strings.Contains(string(debug.Stack()), "parseFieldTagsRecursive") {
			v, msg = accepted, ""
			return
		}
		msg = fmt.Sprint(r)
		v = rejected
		if strings.HasPrefix(msg, "Undefined validation function") {
			v = unknownKeyword
		}
	}()
	_ = oracle.Var(map[string][]string{"k": {"v"}}, tag)
	return accepted, ""
}

// stricterThanValidator lists the tags validator accepts but this parser
// rejects on purpose: each is a mistake validator silently ignores, and
// rejecting it cannot change what a correct tag means.
var stricterThanValidator = []struct {
	example, msg, why string
	applies           func(tag string, e Error) bool
}{
	{
		example: "dive,keys,min=1",
		msg:     "'keys' without a matching 'endkeys'",
		why:     "validator takes every remaining check as a key check, so the values are silently unchecked",
		applies: func(string, Error) bool { return true },
	},
	{
		example: "required,endkeys",
		msg:     "'endkeys' without a matching 'keys'",
		why:     "validator ends the chain at a stray endkeys that is the last piece",
		applies: func(tag string, e Error) bool { return e.Offset+len("endkeys") == len(tag) },
	},
	{
		example: "omitempty,omitnil",
		msg:     "repeats",
		why:     "two different omit keywords on one value; one omit per level is all the model can represent",
		applies: func(string, Error) bool { return true },
	},
}

func excused(tag string, e Error) bool {
	for _, s := range stricterThanValidator {
		if strings.Contains(e.Msg, s.msg) && s.applies(tag, e) {
			return true
		}
	}
	return false
}

func checkAgainstValidator(t *testing.T, tag string, errs []Error) {
	t.Helper()
	v, msg := validatorVerdict(tag)
	switch {
	case v == rejected && len(errs) == 0:
		t.Fatalf("validator rejects %q (%s), but Parse accepts it", tag, msg)
	case v == accepted:
		for _, e := range errs {
			if !excused(tag, e) {
				t.Fatalf("validator accepts %q, but Parse reports %v", tag, e)
			}
		}
	}
}

// TestStricterThanValidator keeps the list of exceptions honest: each
// example must still be accepted by validator and rejected here.
func TestStricterThanValidator(t *testing.T) {
	for _, s := range stricterThanValidator {
		if v, msg := validatorVerdict(s.example); v != accepted {
			t.Errorf("%q: validator no longer accepts it (%s); drop the exception", s.example, msg)
		}
		_, errs := Parse(s.example)
		if len(errs) != 1 || !strings.Contains(errs[0].Msg, s.msg) || !excused(s.example, errs[0]) {
			t.Errorf("%q: Parse reports %v, want one error containing %q", s.example, errs, s.msg)
		}
	}
}

func TestAgainstValidator(t *testing.T) {
	tests := []struct {
		tag  string
		want verdict // what validator says, so the table documents it
	}{
		{"", accepted},
		{"-", accepted},
		{"required,min=1,max=10", accepted},
		{"min=1,omitempty,max=3", accepted},
		{"omitempty,omitempty", accepted},
		{"omitnil,omitnil,gt=0", accepted},
		{"oneof=card sepa 'wire transfer'", accepted},
		{"contains=a0x2Cb|excludes=0x7C", accepted},
		{"rgb|rgba|hexcolor", accepted},
		{"iscolor", accepted},
		{"iscolor|uuid", accepted},
		{"dive,keys,min=1,endkeys,max=3", accepted},
		{"dive,keys,endkeys", accepted},
		{"omitempty,dive,omitempty,min=1", accepted},
		{"structonly,nostructlevel", accepted},
		{"omitzero,len=2", accepted},
		{"min=1,dive", accepted},
		// structural errors: both must reject
		{"keys,min=1,endkeys", rejected},
		{"required,keys,endkeys", rejected},
		{"dive,min=1,keys,endkeys", rejected},
		{"dive,keys", rejected},
		{"endkeys,required", rejected},
		{"dive,keys,endkeys,endkeys,required", rejected},
		{"required,", rejected},
		{",required", rejected},
		{"=5", rejected},
		{"min=1|", rejected},
		// validator stops at a name it does not know; the model's registry
		// reports those, not the grammar
		{"required, min=1", unknownKeyword},
		{"required,-", unknownKeyword},
		{"omitempty|required", unknownKeyword},
		{"nosuchkeyword", unknownKeyword},
		// accepted by validator, rejected here on purpose (see stricterThanValidator)
		{"dive,keys,min=1", accepted},
		{"required,endkeys", accepted},
		{"omitempty,omitnil", accepted},
	}
	for _, tt := range tests {
		if v, msg := validatorVerdict(tt.tag); v != tt.want {
			t.Errorf("validator on %q: verdict %d (%s), the table says %d", tt.tag, v, msg, tt.want)
		}
		_, errs := Parse(tt.tag)
		checkAgainstValidator(t, tt.tag, errs)
	}
}

// TestEscapesAgreeWithValidator checks that the parameter Parse records
// for an escaped tag is the one validator uses: validator's answer on each
// value is what the unescaped parameter predicts.
func TestEscapesAgreeWithValidator(t *testing.T) {
	tests := []struct {
		tag, param string
		values     []string
	}{
		{"contains=a0x2Cb", "a,b", []string{"xa,by", "a0x2Cb", "ab"}},
		{"excludes=0x7C", "|", []string{"a|b", "0x7C", "ab"}},
		{"contains=0x2C0x7C", ",|", []string{",|", "|,", "0x2C0x7C"}},
	}
	for _, tt := range tests {
		parsed, errs := Parse(tt.tag)
		if len(errs) > 0 {
			t.Fatalf("Parse(%q): %v", tt.tag, errs)
		}
		term := parsed.Root.Checks[0].Or[0]
		if term.Param != tt.param {
			t.Errorf("Parse(%q): parameter %q, want %q", tt.tag, term.Param, tt.param)
		}
		for _, v := range tt.values {
			predicted := strings.Contains(v, term.Param) == (term.Name == "contains")
			if got := oracle.Var(v, tt.tag) == nil; got != predicted {
				t.Errorf("validator: %q on %q = %v, the parameter %q predicts %v", tt.tag, v, got, term.Param, predicted)
			}
		}
	}
}
