package gen_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/gen/crd"
	"github.com/modelgen/modelgen/gen/deepcopy"
	"github.com/modelgen/modelgen/gen/openapidoc"
	"github.com/modelgen/modelgen/internal/typecheck"
	"github.com/modelgen/modelgen/internal/writer"
	"github.com/modelgen/modelgen/model"
	"github.com/modelgen/modelgen/schema"
)

// The benchmarks below time one phase of the pipeline each, on a synthetic
// package of benchKinds kinds (the shape hack/bench-generation.sh uses), so
// that a regression shows where it happened:
//
//	go test -run '^$' -bench 'Phase' -benchtime 3x ./gen
//
// They assert nothing about time.

const benchKinds = 100

func BenchmarkPhaseLoad(b *testing.B) {
	dir := synthModule(b, benchKinds)
	for b.Loop() {
		m := load(b, dir)
		if len(m.Packages) == 0 {
			b.Fatal("no packages")
		}
	}
}

func BenchmarkPhaseSchema(b *testing.B) {
	m := load(b, synthModule(b, benchKinds))
	for b.Loop() {
		for _, t := range []model.Target{model.TargetCRD, model.TargetOpenAPI} {
			if s := schema.Build(m, t); s.Diags.HasErrors() {
				b.Fatal(s.Diags)
			}
		}
	}
}

func BenchmarkPhaseCRD(b *testing.B) { benchBackend(b, crd.Generator{}, model.TargetCRD) }
func BenchmarkPhaseOpenAPI(b *testing.B) {
	benchBackend(b, openapidoc.Generator{}, model.TargetOpenAPI)
}
func BenchmarkPhaseDeepcopy(b *testing.B) {
	benchBackend(b, deepcopy.Generator{}, model.TargetCRD)
}

// BenchmarkPhaseTypeCheck times the check of the package with its
// generated Go files in place (typecheck.Check.Compile).
func BenchmarkPhaseTypeCheck(b *testing.B) {
	m := load(b, synthModule(b, benchKinds))
	files, diags := gen.Run(m, gen.DefaultConfigs(m), []gen.Generator{deepcopy.Generator{}})
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	for b.Loop() {
		if d := typecheck.Start(m).Compile(gen.GoFiles(files)); d.HasErrors() {
			b.Fatal(d)
		}
	}
}

// BenchmarkPhaseWriter writes the CRDs, the OpenAPI document and the
// deepcopy file into a tree where none of them exists yet.
func BenchmarkPhaseWriter(b *testing.B) {
	dir := synthModule(b, benchKinds)
	m := load(b, dir)
	files, diags := gen.Run(m, gen.DefaultConfigs(m), []gen.Generator{openapidoc.Generator{}, crd.Generator{}, deepcopy.Generator{}})
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	sc := writer.Scope{Packages: map[string]string{m.Packages[0].Path: m.Packages[0].Dir}}
	for b.Loop() {
		b.StopTimer()
		for _, f := range files {
			os.Remove(f.Path)
		}
		b.StartTimer()
		if _, err := writer.SyncScope(files, false, sc); err != nil {
			b.Fatal(err)
		}
	}
}

// benchBackend times one backend, its schemas built once beforehand.
func benchBackend(b *testing.B, g gen.Generator, t model.Target) {
	m := load(b, synthModule(b, benchKinds))
	c := &gen.Context{Model: m, Configs: gen.DefaultConfigs(m)}
	c.Schemas(t)
	for b.Loop() {
		if files, diags := g.Generate(c); diags.HasErrors() || len(files) == 0 {
			b.Fatal(diags)
		}
	}
}

func load(b *testing.B, dir string) *model.Model {
	b.Helper()
	m, err := model.Load(model.Config{Dir: dir, Patterns: []string{"./..."}})
	if err != nil {
		b.Fatal(err)
	}
	if m.Diags.HasErrors() {
		b.Fatal(m.Diags)
	}
	return m
}

// synthModule writes a module with one API package of n kinds, each with a
// spec (string bounds, an optional int32 with a minimum, a map, a list map
// of a shared struct, an enum), a status with conditions, and a list type.
func synthModule(b *testing.B, n int) string {
	b.Helper()
	dir := b.TempDir()
	root, err := filepath.Abs("..")
	if err != nil {
		b.Fatal(err)
	}
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		b.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(mod), "\n")
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		b.Fatal(err)
	}
	var src strings.Builder
	src.WriteString(`// Package v1 is a synthetic API.
// +groupName=synth.example.com
// +kubebuilder:object:generate=true
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Item is shared by every kind.
type Item struct {
	// +kubebuilder:validation:MinLength=1
	Name  string ` + "`json:\"name\"`" + `
	Value string ` + "`json:\"value,omitempty\"`" + `
}
`)
	for i := range n {
		k := fmt.Sprintf("Kind%04d", i)
		fmt.Fprintf(&src, `
// %[1]s is synthetic kind number %[2]d.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Mode",type=string,JSONPath=`+"`.spec.mode`"+`
type %[1]s struct {
	metav1.TypeMeta   `+"`json:\",inline\"`"+`
	metav1.ObjectMeta `+"`json:\"metadata,omitempty\"`"+`
	Spec   %[1]sSpec   `+"`json:\"spec\"`"+`
	Status %[1]sStatus `+"`json:\"status,omitempty\"`"+`
}

// %[1]sSpec is the desired state.
type %[1]sSpec struct {
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	Name string `+"`json:\"name\"`"+`
	// +kubebuilder:validation:Minimum=0
	// +optional
	Replicas *int32 `+"`json:\"replicas,omitempty\"`"+`
	Labels map[string]string `+"`json:\"labels,omitempty\"`"+`
	// +listType=map
	// +listMapKey=name
	Items []Item `+"`json:\"items,omitempty\"`"+`
	// +kubebuilder:validation:Enum=Fast;Slow
	Mode string `+"`json:\"mode,omitempty\"`"+`
}

// %[1]sStatus is the observed state.
type %[1]sStatus struct {
	Conditions []metav1.Condition `+"`json:\"conditions,omitempty\"`"+`
	ObservedGeneration int64 `+"`json:\"observedGeneration,omitempty\"`"+`
}

// %[1]sList is a list of %[1]s.
// +kubebuilder:object:root=true
type %[1]sList struct {
	metav1.TypeMeta `+"`json:\",inline\"`"+`
	metav1.ListMeta `+"`json:\"metadata,omitempty\"`"+`
	Items []%[1]s `+"`json:\"items\"`"+`
}
`, k, i)
	}
	for path, data := range map[string]string{
		"go.mod":          "module example.com/synth\n" + rest,
		"go.sum":          string(sum),
		"api/v1/types.go": src.String(),
	} {
		path = filepath.Join(dir, path)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}
