package openapi

import "testing"

// TestPatternsCompiledOnce: kin-openapi calls the document's regex
// compiler for every schema it validates; each pattern is compiled once
// per process and the same matcher returned after that.
func TestPatternsCompiledOnce(t *testing.T) {
	a, err := ECMARegexCompiler(`^[a-z]+-once$`)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := ECMARegexCompiler(`^[a-z]+-once$`)
	if a != b {
		t.Error("the pattern was compiled again")
	}
	if !a.MatchString("abc-once") || a.MatchString("ABC") {
		t.Error("the cached matcher does not match as the pattern says")
	}
	if _, err := ECMARegexCompiler(`(`); err == nil {
		t.Error("an invalid pattern compiled")
	}
	if _, err := ECMARegexCompiler(`(`); err == nil {
		t.Error("an invalid pattern compiled the second time")
	}
}
