package model_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelgen/modelgen/model"
)

// selection describes what Load selected: "Name" for a root, "Name=kind"
// for a root that is a custom resource, "Name=model" for a plain model.
func selection(m *model.Model) []string {
	var out []string
	for _, t := range m.SortedTypes() {
		switch {
		case t.Resource != nil:
			out = append(out, t.Name+"=kind")
		case t.Root:
			out = append(out, t.Name)
		case t.Model:
			out = append(out, t.Name+"=model")
		}
	}
	slices.Sort(out)
	return out
}

func loadKinds(t *testing.T, pkgs ...string) *model.Model {
	t.Helper()
	var patterns []string
	for _, p := range pkgs {
		patterns = append(patterns, "./"+p)
	}
	m, err := model.Load(model.Config{Dir: filepath.Join("testdata", "kinds"), Patterns: patterns})
	if err != nil {
		t.Fatal(err)
	}
	if m.Diags.HasErrors() {
		t.Fatal(m.Diags)
	}
	return m
}

// TestKindsFoundAsControllerGenFindsThem: a kind is a struct embedding
// metav1.TypeMeta and metav1.ObjectMeta, with or without the root marker;
// its list is a root but not a kind; a root without ObjectMeta is not
// selected; a skipversion kind and its list are not selected.
func TestKindsFoundAsControllerGenFindsThem(t *testing.T) {
	m := loadKinds(t, "v1")
	got := selection(m)
	want := []string{"Marked=kind", "Unmarked=kind", "UnmarkedList"}
	if !slices.Equal(got, want) {
		t.Errorf("selected %v, want %v", got, want)
	}
	if len(m.Diags) != 0 {
		t.Errorf("unexpected diagnostics: %v", m.Diags)
	}
}

// TestKindsOfTheGroupInOtherVersions: a type named as a kind of its group
// is a version of that kind even when it is declared as another version's
// type (controller-gen adds it to the CRD); alone, without the package
// that makes the name a kind, it is not.
func TestKindsOfTheGroupInOtherVersions(t *testing.T) {
	var v2 []string
	for _, s := range selection(loadKinds(t, "v1", "v2")) {
		if s == "Marked=kind" || s == "MarkedList" || s == "Spec" {
			v2 = append(v2, s)
		}
	}
	if want := []string{"Marked=kind", "Marked=kind", "MarkedList"}; !slices.Equal(v2, want) {
		t.Errorf("selected %v, want %v", v2, want)
	}
	if got := selection(loadKinds(t, "v2")); len(got) != 0 {
		t.Errorf("v2 alone: selected %v, want nothing", got)
	}
}

// TestPackageWithoutGroupIsSkippedWithOneNote: objects of a package
// without +groupName are skipped (controller-gen writes no CRD for them),
// with one warning naming them and the fix; plain models stay.
func TestPackageWithoutGroupIsSkippedWithOneNote(t *testing.T) {
	m := loadKinds(t, "nogroup")
	if got, want := selection(m), []string{"Payload=model"}; !slices.Equal(got, want) {
		t.Errorf("selected %v, want %v", got, want)
	}
	if len(m.Diags) != 1 {
		t.Fatalf("want one note, got %v", m.Diags)
	}
	d := m.Diags[0]
	if d.Severity != model.Warning || d.Pos.Line == 0 || !strings.Contains(d.Msg, "no +groupName") ||
		!strings.Contains(d.Msg, "Hook, Thing") || !strings.Contains(d.Msg, "// +groupName=") {
		t.Errorf("note = %v", d)
	}
}

// TestKubebuilderSkipPackage: +kubebuilder:skip on the package selects
// nothing from it, silently.
func TestKubebuilderSkipPackage(t *testing.T) {
	m := loadKinds(t, "skipped")
	if got := selection(m); len(got) != 0 || len(m.Diags) != 0 {
		t.Errorf("selected %v with %v, want nothing", got, m.Diags)
	}
}
