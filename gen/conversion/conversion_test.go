package conversion

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/internal/testkit"
	"github.com/modelgen/modelgen/internal/testkit/diagtest"
	"github.com/modelgen/modelgen/model"
)

func load(t *testing.T, dir string) *model.Model {
	t.Helper()
	m, err := model.Load(model.Config{Dir: dir, Patterns: []string{"./..."}})
	if err != nil {
		t.Fatal(err)
	}
	if m.Diags.HasErrors() {
		t.Fatalf("loading %s: %v", dir, m.Diags)
	}
	return m
}

// TestDiagnostics compares what the backend reports on each
// testdata/diag/<case> (a group it cannot convert: a type change, enum
// values one side lacks, a split, a merge, a rename to another type or
// from a field that does not exist, one of the two functions missing, no
// storage version, a version without the marker, a strategy other than
// webhook) with the case's stderr.txt; go test -update rewrites them.
func TestDiagnostics(t *testing.T) {
	testkit.DiagnosticGoldens(t, filepath.Join("testdata", "diag"), func(t *testing.T, dir string) string {
		m := load(t, dir)
		files, diags := Generator{}.Generate(&gen.Context{Model: m, Configs: gen.DefaultConfigs(m)})
		if !diags.HasErrors() {
			t.Errorf("no error")
		}
		if len(files) > 0 {
			t.Errorf("with errors, %d files are returned, want none", len(files))
		}
		return diagtest.Render(t, diags, dir, nil)
	})
}

// TestUserFunctions: once the user wrote both functions a diagnostic names,
// the generated conversion calls them for that field (and converts the
// rest), and the generated file is the golden's.
func TestUserFunctions(t *testing.T) {
	dir := filepath.Join("testdata", "userfunc")
	m := load(t, dir)
	files, diags := Generator{}.Generate(&gen.Context{Model: m, Configs: gen.DefaultConfigs(m)})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	abs, _ := filepath.Abs(filepath.Join(dir, "v1alpha1", FileName))
	for _, f := range files {
		if f.Path != abs {
			continue
		}
		src := string(f.Data)
		for _, call := range []string{"convertThingSpecAmountToV1(in, out)", "convertThingSpecAmountFromV1(in, out)", "out.Size = in.Size"} {
			if !strings.Contains(src, call) {
				t.Errorf("the generated conversion lacks %s", call)
			}
		}
		testkit.Golden(t, filepath.Join(dir, "v1alpha1.golden"), src)
		return
	}
	t.Fatalf("no %s", abs)
}

// TestNoMarker: a group whose packages do not carry +modelgen:conversion
// gets exactly the files it gets without the conversion backend (none of
// its own), as controller-gen writes them.
func TestNoMarker(t *testing.T) {
	m := load(t, filepath.Join("testdata", "nomarker"))
	files, diags := Generator{}.Generate(&gen.Context{Model: m, Configs: gen.DefaultConfigs(m)})
	if diags.HasErrors() || len(files) > 0 {
		t.Fatalf("without the marker: %d files, %v; want none", len(files), diags)
	}
}

// TestHubAndPatch: the hub package gets Hub() and the function that serves
// /convert; its module gets kubebuilder's CRD patch (webhook_in_<plural>.yaml
// beside the CRD directory) with the webhook service and path.
func TestHubAndPatch(t *testing.T) {
	dir := filepath.Join("testdata", "userfunc")
	m := load(t, dir)
	files, diags := Generator{}.Generate(&gen.Context{Model: m, Configs: gen.DefaultConfigs(m)})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	hub, _ := filepath.Abs(filepath.Join(dir, "v1", FileName))
	var patch string
	found := false
	for _, f := range files {
		switch {
		case f.Path == hub:
			found = true
			for _, want := range []string{"func (*Thing) Hub() {}", "func SetupConversionWebhookWithManager(mgr ctrl.Manager) error", "ctrl.NewWebhookManagedBy(mgr, &Thing{}).Complete()"} {
				if !strings.Contains(string(f.Data), want) {
					t.Errorf("the hub's file lacks %s:\n%s", want, f.Data)
				}
			}
		case strings.HasSuffix(f.Path, filepath.Join("config", "crd", "patches", "webhook_in_things.yaml")):
			patch = string(f.Data)
		}
	}
	if !found {
		t.Errorf("no %s", hub)
	}
	testkit.Golden(t, filepath.Join(dir, "webhook_in_things.golden"), patch)
}

// TestLostPathsFollowEachVersionsNames: the paths of the fields one version
// lacks are in that version's JSON names, also below a renamed field
// (items in v1alpha1, entries in v1).
func TestLostPathsFollowEachVersionsNames(t *testing.T) {
	dir := filepath.Join("testdata", "renamedlist")
	m := load(t, dir)
	files, diags := Generator{}.Generate(&gen.Context{Model: m, Configs: gen.DefaultConfigs(m)})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	abs, _ := filepath.Abs(filepath.Join(dir, "v1alpha1", FileName))
	for _, f := range files {
		if f.Path != abs {
			continue
		}
		src := string(f.Data)
		for _, want := range []string{
			"var lostThingV1alpha1 = [][]string{\n\t{\"spec\", \"items\", modelconv.Each, \"old\"},\n}",
			"var lostThingV1 = [][]string{\n\t{\"spec\", \"entries\", modelconv.Each, \"serial\"},\n}",
			"out.Entries = out",
		} {
			if !strings.Contains(src, want) {
				t.Errorf("the generated conversion lacks\n%s\nin\n%s", want, src)
			}
		}
		return
	}
	t.Fatalf("no %s", abs)
}

// TestNamedBytesAndDurations: named byte slices and durations of the two
// versions (the same underlying type) are converted by a Go conversion,
// alone and inside pointers, lists and maps, not refused as a type change.
func TestNamedBytesAndDurations(t *testing.T) {
	dir := filepath.Join("testdata", "namedbytes")
	m := load(t, dir)
	files, diags := Generator{}.Generate(&gen.Context{Model: m, Configs: gen.DefaultConfigs(m)})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	abs, _ := filepath.Abs(filepath.Join(dir, "v1alpha1", FileName))
	for _, f := range files {
		if f.Path != abs {
			continue
		}
		src := string(f.Data)
		for _, want := range []string{"out.Blob = v1.Blob(in.Blob)", "(*out2) = v1.Blob((*in1))", "out.Wait = v1.Wait(in.Wait)", "out.Blob = Blob(in.Blob)"} {
			if !strings.Contains(src, want) {
				t.Errorf("the generated conversion lacks %s in\n%s", want, src)
			}
		}
		return
	}
	t.Fatalf("no %s", abs)
}
