package model

import (
	"path/filepath"
	"testing"
)

// TestGroupKindsFoundOnce: the kinds of every group are found once per
// load, not once per package whose roots ask for them (which read every
// type of every package of the run again for each package), and the
// packages' kinds are still selected.
func TestGroupKindsFoundOnce(t *testing.T) {
	searches := 0
	kindsFound = func() { searches++ }
	defer func() { kindsFound = nil }()
	m, err := Load(Config{Dir: filepath.Join("testdata", "kinds"), Patterns: []string{"./v1", "./v2", "./nogroup", "./skipped"}})
	if err != nil || m.Diags.HasErrors() {
		t.Fatalf("loading: %v %v", err, m.Diags)
	}
	if len(m.Packages) < 2 {
		t.Fatalf("%d packages: the test counts too little", len(m.Packages))
	}
	kinds := 0
	for _, ty := range m.SortedTypes() {
		if ty.Resource != nil {
			kinds++
		}
	}
	if kinds == 0 {
		t.Fatal("no kinds selected")
	}
	if searches != 1 {
		t.Errorf("the group kinds were found %d times for %d packages, want once", searches, len(m.Packages))
	}
}
