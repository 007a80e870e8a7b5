package deepcopy

import (
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/model"
)

var receiver = regexp.MustCompile(`(?m)^func \(in \*(\w+)\) DeepCopy\(\)`)

// copied runs the backend on a testdata package and lists the types that
// got a DeepCopy method.
func copied(t *testing.T, pkg string) []string {
	t.Helper()
	m, err := model.Load(model.Config{Dir: filepath.Join("testdata", pkg), Patterns: []string{"."}})
	if err != nil || m.Diags.HasErrors() {
		t.Fatal(err, m.Diags)
	}
	files, diags := Generator{}.Generate(&gen.Context{Model: m})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	var out []string
	for _, f := range files {
		for _, sub := range receiver.FindAllStringSubmatch(string(f.Data), -1) {
			out = append(out, sub[1])
		}
	}
	slices.Sort(out)
	return out
}

// TestControllerGenRule: deepcopy follows controller-gen's rule, as the
// README says: every type of a package marked
// +kubebuilder:object:generate=true but those marked =false; without the
// package marker, only the types marked +kubebuilder:object:root=true.
func TestControllerGenRule(t *testing.T) {
	if got, want := copied(t, "pkgmarker"), []string{"Spec", "Thing"}; !slices.Equal(got, want) {
		t.Errorf("package marker: DeepCopy for %v, want %v", got, want)
	}
	if got, want := copied(t, "rootonly"), []string{"Root"}; !slices.Equal(got, want) {
		t.Errorf("no package marker: DeepCopy for %v, want %v", got, want)
	}
}
