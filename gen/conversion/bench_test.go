package conversion_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/gen/conversion"
	"github.com/modelgen/modelgen/gen/crd"
	"github.com/modelgen/modelgen/gen/deepcopy"
	"github.com/modelgen/modelgen/internal/testkit"
	"github.com/modelgen/modelgen/internal/typecheck"
	"github.com/modelgen/modelgen/model"
)

// BenchmarkConversion times the conversion backend on a group served in two
// versions (v1alpha1 and the storage version v1) of benchKinds() kinds each,
// the shape of testkit.SynthModule with one field v1 adds (kept through
// v1alpha1 in the annotation), beside the CRD and deepcopy backends on the
// same model, and the type check of the generated Go with and without the
// conversion files, so that its cost reads as a ratio measured in one run:
//
//	go test -run '^$' -bench Conversion -benchtime 3x ./gen/conversion
//
// MODELGEN_BENCH_KINDS sets the number of kinds (default 1000). It asserts
// nothing about time.
func BenchmarkConversion(b *testing.B) {
	n := 1000
	if s := os.Getenv("MODELGEN_BENCH_KINDS"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil || n < 1 {
			b.Fatalf("MODELGEN_BENCH_KINDS=%q: want a positive number", s)
		}
	}
	dir := twoVersions(b, n)
	m, err := model.Load(model.Config{Dir: dir, Patterns: []string{"./..."}})
	if err != nil {
		b.Fatal(err)
	}
	if m.Diags.HasErrors() {
		b.Fatal(m.Diags)
	}
	configs := gen.DefaultConfigs(m)
	run := func(b *testing.B, g gen.Backend) []gen.File {
		files, diags := gen.Run(m, configs, []gen.Backend{g})
		if diags.HasErrors() {
			b.Fatal(diags)
		}
		return files
	}
	conv := run(b, conversion.Generator{})
	if len(conv) < 3 {
		b.Fatalf("the conversion backend wrote %d files; want the hub's, the spoke's, its test and the CRD patches", len(conv))
	}
	var convBytes int
	for _, f := range conv {
		convBytes += len(f.Data)
	}
	for _, g := range []gen.Backend{conversion.Generator{}, crd.Generator{}, deepcopy.Generator{}} {
		b.Run(g.Name(), func(b *testing.B) {
			for b.Loop() {
				run(b, g)
			}
			if g.Name() == "conversion" {
				b.ReportMetric(float64(convBytes), "bytes-written")
			}
		})
	}
	dc := run(b, deepcopy.Generator{})
	for _, c := range []struct {
		name  string
		files []gen.File
	}{{"typecheck-deepcopy", dc}, {"typecheck-deepcopy+conversion", append(append([]gen.File(nil), dc...), conv...)}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if d := typecheck.Start(m).Compile(gen.GoFiles(c.files)); d.HasErrors() {
					b.Fatal(d)
				}
			}
		})
	}
}

// twoVersions writes testkit.SynthModule's module with its package served
// as v1alpha1 and as v1, the storage version, both carrying
// +modelgen:conversion=webhook; v1's spec has a field v1alpha1 lacks.
func twoVersions(b *testing.B, n int) string {
	dir := testkit.SynthModule(b, n)
	// the generated conversion imports controller-runtime and modelgen's
	// conversion package: the module requires what the examples' module
	// requires
	root := testkit.Root(b)
	mod, err := os.ReadFile(filepath.Join(root, "examples", "go.mod"))
	if err != nil {
		b.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(root, "examples", "go.sum"))
	if err != nil {
		b.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(mod), "\n")
	rest = strings.Replace(rest, "replace github.com/modelgen/modelgen => ../", "replace github.com/modelgen/modelgen => "+root, 1)
	testkit.WriteFile(b, filepath.Join(dir, "go.mod"), "module example.com/synth\n"+rest)
	testkit.WriteFile(b, filepath.Join(dir, "go.sum"), string(sum))
	hubPath := filepath.Join(dir, "api", "v1", "types.go")
	src, err := os.ReadFile(hubPath)
	if err != nil {
		b.Fatal(err)
	}
	marked := strings.Replace(string(src), "// +groupName=synth.example.com\n", "// +groupName=synth.example.com\n// +modelgen:conversion=webhook\n", 1)
	if marked == string(src) {
		b.Fatal("the synthetic package has no +groupName line: the benchmark no longer builds two versions")
	}
	spoke := strings.Replace(marked, "package v1\n", "package v1alpha1\n", 1)
	spoke = strings.Replace(spoke, "// Package v1 ", "// Package v1alpha1 ", 1)
	hub := strings.ReplaceAll(marked, "// +kubebuilder:subresource:status\n", "// +kubebuilder:subresource:status\n// +kubebuilder:storageversion\n")
	const mode = "\tMode string `json:\"mode,omitempty\"`\n"
	hub = strings.ReplaceAll(hub, mode, mode+"\t// Note is new in v1.\n\tNote string `json:\"note,omitempty\"`\n")
	if strings.Count(hub, "+kubebuilder:storageversion") != n || strings.Count(hub, "Note string") != n {
		b.Fatal("the synthetic kinds changed shape: the benchmark no longer marks the storage version or adds v1's field")
	}
	testkit.WriteFile(b, hubPath, hub)
	testkit.WriteFile(b, filepath.Join(dir, "api", "v1alpha1", "types.go"), spoke)
	return dir
}
