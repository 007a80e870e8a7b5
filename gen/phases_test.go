package gen_test

import (
	"os"
	"testing"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/gen/crd"
	"github.com/modelgen/modelgen/gen/deepcopy"
	"github.com/modelgen/modelgen/gen/openapidoc"
	"github.com/modelgen/modelgen/internal/testkit"
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
	dir := testkit.SynthModule(b, benchKinds)
	for b.Loop() {
		m := load(b, dir)
		if len(m.Packages) == 0 {
			b.Fatal("no packages")
		}
	}
}

func BenchmarkPhaseSchema(b *testing.B) {
	m := load(b, testkit.SynthModule(b, benchKinds))
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
	m := load(b, testkit.SynthModule(b, benchKinds))
	files, diags := gen.Run(m, gen.DefaultConfigs(m), []gen.Backend{deepcopy.Generator{}})
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
	dir := testkit.SynthModule(b, benchKinds)
	m := load(b, dir)
	files, diags := gen.Run(m, gen.DefaultConfigs(m), []gen.Backend{openapidoc.Generator{}, crd.Generator{}, deepcopy.Generator{}})
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
func benchBackend(b *testing.B, g gen.Backend, t model.Target) {
	m := load(b, testkit.SynthModule(b, benchKinds))
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
