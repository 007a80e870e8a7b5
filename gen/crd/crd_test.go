package crd

import (
	"bytes"
	"io"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/genall"
	"sigs.k8s.io/controller-tools/pkg/loader"
	"sigs.k8s.io/controller-tools/pkg/markers"
	"sigs.k8s.io/yaml"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/model"
)

func loadCase(t testing.TB, name string) *model.Model {
	t.Helper()
	m, err := model.Load(model.Config{Dir: filepath.Join("testdata", name), Patterns: []string{"."}})
	if err != nil {
		t.Fatal(err)
	}
	if m.Diags.HasErrors() {
		t.Fatalf("loading %s: %v", name, m.Diags)
	}
	return m
}

func genContext(m *model.Model) *gen.Context {
	cfg := map[string]gen.Config{}
	for _, p := range m.Packages {
		cfg[p.Path] = gen.Config{CRDDir: "config/crd/bases"}
	}
	return &gen.Context{Model: m, Configs: cfg}
}

// memOutput collects what controller-gen writes.
type memOutput struct{ files map[string]*bytes.Buffer }

type nopCloser struct{ *bytes.Buffer }

func (nopCloser) Close() error { return nil }

func (o *memOutput) Open(_ *loader.Package, path string) (io.WriteCloser, error) {
	b := &bytes.Buffer{}
	o.files[path] = b
	return nopCloser{b}, nil
}

// controllerGen runs controller-tools' own CRD generator (v0.23, the
// version in go.mod) on a directory.
func controllerGen(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	roots, err := loader.LoadRootsWithConfig(&packages.Config{Dir: dir}, ".")
	if err != nil {
		t.Fatal(err)
	}
	reg := &markers.Registry{}
	g := crd.Generator{}
	if err := g.RegisterMarkers(reg); err != nil {
		t.Fatal(err)
	}
	out := &memOutput{files: map[string]*bytes.Buffer{}}
	ctx := &genall.GenerationContext{
		Collector:  &markers.Collector{Registry: reg},
		Roots:      roots,
		Checker:    &loader.TypeChecker{},
		OutputRule: out,
	}
	if err := g.Generate(ctx); err != nil {
		t.Fatal(err)
	}
	if loader.PrintErrors(roots, packages.TypeError) {
		t.Fatal("controller-gen reported errors")
	}
	res := map[string][]byte{}
	for k, v := range out.files {
		res[k] = v.Bytes()
	}
	return res
}

func parse(t testing.TB, data []byte) map[string]any {
	t.Helper()
	var obj map[string]any
	if err := yaml.Unmarshal(data, &obj); err != nil {
		t.Fatal(err)
	}
	if meta, ok := obj["metadata"].(map[string]any); ok {
		delete(meta, "annotations")
	}
	return obj
}

// TestControllerGenCompat: a package with kubebuilder markers only gives
// the same CRD as controller-gen, compared as parsed objects.
func TestControllerGenCompat(t *testing.T) {
	m := loadCase(t, "markersonly")
	files, diags := Generator{}.Generate(genContext(m))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	theirs := controllerGen(t, filepath.Join("testdata", "markersonly"))
	if len(files) != 1 || len(theirs) != 1 {
		t.Fatalf("want one CRD from each, got %d from modelgen and %d from controller-gen", len(files), len(theirs))
	}
	want := theirs["compat.example.com_widgets.yaml"]
	if want == nil {
		t.Fatalf("controller-gen wrote %v", theirs)
	}
	if filepath.Base(files[0].Path) != "compat.example.com_widgets.yaml" {
		t.Errorf("file name %s, want controller-gen's compat.example.com_widgets.yaml", filepath.Base(files[0].Path))
	}
	got, exp := parse(t, files[0].Data), parse(t, want)
	if !strings.Contains(string(want), "minReplicas") || !strings.Contains(string(want), "x-kubernetes-list-map-keys") {
		t.Fatalf("controller-gen's CRD lacks the fixture's fields:\n%s", want)
	}
	if !reflect.DeepEqual(got, exp) {
		g, _ := yaml.Marshal(got)
		e, _ := yaml.Marshal(exp)
		t.Errorf("modelgen and controller-gen differ\n--- modelgen\n%s\n--- controller-gen\n%s", g, e)
	}
}

// TestVerifyRejectsBrokenCRD: rules the API server would refuse are
// positioned errors at the Go field, and nothing is generated.
func TestVerifyRejectsBrokenCRD(t *testing.T) {
	m := loadCase(t, "broken")
	files, diags := Generator{}.Generate(genContext(m))
	if !diags.HasErrors() || len(files) != 0 {
		t.Fatalf("want errors and no files, got %d files, diagnostics %v", len(files), diags)
	}
	text := diags.Error()
	for _, want := range []string{
		"types.go:22:2: the API server would reject CRD gadgets.broken.example.com: .spec.items",
		"cost",
		"maxItems",
		"types.go:24:2: the API server would reject CRD gadgets.broken.example.com: .spec.name",
		"nosuchfunction",
		`types.go:26:2: CRD gadgets.broken.example.com: .spec.phone: the API server ignores format "phone"`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("diagnostics lack %q:\n%s", want, text)
		}
	}
}

// TestMultipleVersions: two packages of one group give one CRD with both
// versions, one of them the storage version, each with its own constraints.
func TestMultipleVersions(t *testing.T) {
	m, err := model.Load(model.Config{Dir: filepath.Join("testdata", "multiversion"), Patterns: []string{"./..."}})
	if err != nil || m.Diags.HasErrors() {
		t.Fatal(err, m.Diags)
	}
	res, diags := Build(genContext(m))
	if diags.HasErrors() || len(res) != 1 {
		t.Fatalf("want one CRD, got %d: %v", len(res), diags)
	}
	vs := res[0].CRD.Spec.Versions
	if len(vs) != 2 {
		t.Fatalf("want 2 versions, got %d", len(vs))
	}
	for _, v := range vs {
		max := *v.Schema.OpenAPIV3Schema.Properties["spec"].Properties["size"].Maximum
		want := map[string]float64{"v1": 10, "v2": 20}[v.Name]
		if max != want || v.Storage != (v.Name == "v2") {
			t.Errorf("version %s: maximum %v (want %v), storage %v", v.Name, max, want, v.Storage)
		}
	}
}
