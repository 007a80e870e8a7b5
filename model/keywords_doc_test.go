package model

import "testing"

// TestEveryKeywordIsDocumented: the README's tag table is generated from
// Doc and Schema, so every keyword must say what it checks and what it
// becomes.
func TestEveryKeywordIsDocumented(t *testing.T) {
	for _, k := range Keywords() {
		if k.Doc() == "" || k.Doc() == "see validator's documentation" {
			t.Errorf("keyword %q has no one-line doc", k.Name())
		}
		if k.Schema() == "" {
			t.Errorf("keyword %q does not say what it becomes", k.Name())
		}
	}
}
