package crd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProtectedGroupErrorNamesTheMarker: the API server refuses a CRD of a
// *.k8s.io group without the approval annotation; the error names the
// marker that fixes it, and that marker, added as suggested, does.
func TestProtectedGroupErrorNamesTheMarker(t *testing.T) {
	_, diags := Build(genContext(loadCase(t, "protected")))
	if len(diags) != 1 {
		t.Fatalf("want one error, got %v", diags)
	}
	msg := diags[0].String()
	if !strings.Contains(msg, "types.go:10:6:") || !strings.Contains(msg, ApprovalMarker("<URL of the API review>")) || !strings.Contains(msg, "type Gadget") {
		t.Errorf("the error does not name the fix: %s", msg)
	}

	const url = "https://github.com/kubernetes/enhancements/pull/1111"
	src, err := os.ReadFile(filepath.Join("testdata", "protectedapproved", "types.go"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), ApprovalMarker(url)+"\ntype Gadget") {
		t.Fatal("testdata/protectedapproved must carry exactly the suggested marker")
	}
	results, diags := Build(genContext(loadCase(t, "protectedapproved")))
	if len(diags) != 0 || len(results) != 1 {
		t.Fatalf("with the suggested marker: %d CRDs, %v", len(results), diags)
	}
	if got := results[0].CRD.Annotations["api-approved.kubernetes.io"]; got != url {
		t.Errorf("annotation = %q", got)
	}
}
