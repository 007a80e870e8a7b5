package statetag

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParse(t *testing.T) {
	spec, errs := Parse(" initial = A ; A|B -> C : Cancel [ Allowed ] ; terminal=C ; events=Cancel ; ")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if got, want := spec.String(), "initial=A;terminal=C;events=Cancel;A|B->C:Cancel[Allowed]"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	tr := spec.Transitions[0]
	if tr.From[1].Off != 17 || tr.To.Off != 22 || tr.Event.Off != 26 || tr.Guard.Off != 35 {
		t.Errorf("offsets: from[1]=%d to=%d event=%d guard=%d", tr.From[1].Off, tr.To.Off, tr.Event.Off, tr.Guard.Off)
	}
}

func TestParseStateNames(t *testing.T) {
	spec, errs := Parse("initial=in-progress;in-progress->done.v2:Finish;a/b->c+d:X;Über->é:Y")
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var got []string
	for _, tr := range spec.Transitions {
		got = append(got, tr.From[0].Text+">"+tr.To.Text)
	}
	if strings.Join(got, " ") != "in-progress>done.v2 a/b>c+d Über>é" {
		t.Errorf("states: %v", got)
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct {
		tag  string
		off  int
		want string
	}{
		{"initial=", 8, "want the initial state"},
		{"A->B", 4, "want ':' and an event"},
		{"A->B:", 5, "want the event"},
		{"A->B:go", 5, "must start with an upper-case"},
		{"A-B:Go", 3, "want '->' after the source state \"A-B\""},
		{"A->B:Go[", 8, "want a guard"},
		{"A->B:Go[G", 9, "want ']'"},
		{"A->B:Go x", 8, "unexpected \"x\""},
		{"A->B:C;;B->C:D", 7, "empty clause"},
		{"start=A", 0, `unknown key "start"`},
		{"initial=A;initial=B", 10, "initial= is given twice"},
		{"A|->B:C", 2, "want a source state"},
		{"A->B:C;\"x", 7, "want a state"},
		{"terminal=A|", 11, "want a terminal state after '|'"},
		{"events=A|b", 9, "must start with an upper-case"},
	} {
		_, errs := Parse(c.tag)
		if len(errs) == 0 {
			t.Errorf("Parse(%q): no error, want %q", c.tag, c.want)
			continue
		}
		if errs[0].Off != c.off || !strings.Contains(errs[0].Msg, c.want) {
			t.Errorf("Parse(%q) = %d: %s, want %d: %s", c.tag, errs[0].Off, errs[0].Msg, c.off, c.want)
		}
	}
}

func TestParseKeepsGoingAfterAnError(t *testing.T) {
	spec, errs := Parse("A->:X;initial=A;B->C:;A->B:Go")
	if len(errs) != 2 || spec.Initial == nil || len(spec.Transitions) != 1 {
		t.Errorf("errors %v, spec %s", errs, spec)
	}
}

func TestParseEmpty(t *testing.T) {
	for _, tag := range []string{"", "  "} {
		spec, errs := Parse(tag)
		if len(errs) > 0 || spec.Initial != nil || len(spec.Transitions) > 0 {
			t.Errorf("Parse(%q) = %s, %v", tag, spec, errs)
		}
	}
}

// FuzzParse checks that Parse never panics, that every error points inside
// the tag, that names sit at their offsets, and that a tag without errors
// survives a round trip through its canonical form.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"initial=Submitted;Submitted->Authorized:Authorize;Authorized->Processed:Process;Processed->Settled:Settle;Processed->Submitted:Retry;Settled->Refunded:Refund",
		"initial=pending;pending->active:Activate;active->degraded:Degrade;degraded->active:Recover;degraded->breached:Breach;breached->resolved:Resolve",
		"initial=A;A|B->C:Cancel[NotCaptured];terminal=C;events=Cancel",
		"initial = in-progress ; in-progress -> done : Finish ;",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, tag string) {
		spec, errs := Parse(tag)
		for _, e := range errs {
			if e.Off < 0 || e.Off > len(tag) {
				t.Fatalf("error offset %d outside the tag (%d bytes): %s", e.Off, len(tag), e.Msg)
			}
		}
		checkOffsets(t, tag, spec)
		if len(errs) > 0 || !utf8.ValidString(tag) {
			return
		}
		again, errs := Parse(spec.String())
		if len(errs) > 0 {
			t.Fatalf("canonical form %q of %q does not parse: %v", spec.String(), tag, errs)
		}
		if again.String() != spec.String() {
			t.Fatalf("round trip changed %q into %q", spec.String(), again.String())
		}
	})
}

func checkOffsets(t *testing.T, tag string, spec *Spec) {
	t.Helper()
	check := func(n Name) {
		if n.Off < 0 || n.Off+len(n.Text) > len(tag) || tag[n.Off:n.Off+len(n.Text)] != n.Text || n.Text == "" {
			t.Fatalf("name %q is not at offset %d of %q", n.Text, n.Off, tag)
		}
	}
	if spec.Initial != nil {
		check(*spec.Initial)
	}
	for _, n := range append(append([]Name{}, spec.Terminal...), spec.Events...) {
		check(n)
	}
	for _, tr := range spec.Transitions {
		for _, n := range tr.From {
			check(n)
		}
		check(tr.To)
		check(tr.Event)
		if tr.Guard != nil {
			check(*tr.Guard)
		}
	}
}
