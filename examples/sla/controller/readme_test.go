package controller

import (
	"os"
	"strings"
	"testing"
)

// TestReadmeDiagramIsTheGeneratedOne keeps the diagram in the example's
// README equal to the one modelgen generates from the state tag.
func TestReadmeDiagramIsTheGeneratedOne(t *testing.T) {
	mermaid := func(file string) string {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		s := string(data)
		i := strings.Index(s, "```mermaid\n")
		if i < 0 {
			t.Fatalf("%s has no mermaid block", file)
		}
		s = s[i:]
		return s[:strings.Index(s[3:], "```")+6]
	}
	if got, want := mermaid("../README.md"), mermaid("../api/v1alpha1/docs/SLAContractStatus-statemachine.md"); got != want {
		t.Fatalf("README diagram:\n%s\nthe generated one:\n%s", got, want)
	}
}
