package all_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/modelgen/modelgen/gen/all"
)

// diagramRow is a backend's row of docs/architecture.md's pipeline
// diagram: "├─ crd   CRDs ...".
var diagramRow = regexp.MustCompile(`(?m)^\s+[├└]─ (\S+)\s`)

// TestArchitectureDiagramListsEveryBackend: the pipeline diagram of
// docs/architecture.md names every backend of the list, in the order they
// run, and no other.
func TestArchitectureDiagramListsEveryBackend(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range diagramRow.FindAllStringSubmatch(string(data), -1) {
		got = append(got, m[1])
	}
	if want := all.Names(); !slices.Equal(got, want) {
		t.Errorf("docs/architecture.md's diagram lists the backends\n  %v\ngen/all runs\n  %v", got, want)
	}
}
