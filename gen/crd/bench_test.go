package crd

import (
	"path/filepath"
	"testing"

	"github.com/modelgen/modelgen/model"
)

// The generation benchmarks compare modelgen's whole CRD path (load, model,
// validate overlay, CRD, in-process API-server validation) with
// controller-gen's CRD generator on the same package. Both load the package
// from scratch in every iteration, as a go:generate run does.
// hack/bench.sh runs them side by side and prints the ratio.

func BenchmarkGenerateCRDModelgen(b *testing.B) {
	dir := filepath.Join("testdata", "markersonly")
	for b.Loop() {
		m, err := model.Load(model.Config{Dir: dir, Patterns: []string{"."}})
		if err != nil || m.Diags.HasErrors() {
			b.Fatal(err, m.Diags)
		}
		if _, diags := (Generator{}).Generate(genContext(m)); diags.HasErrors() {
			b.Fatal(diags)
		}
	}
}

func BenchmarkGenerateCRDControllerGen(b *testing.B) {
	dir := filepath.Join("testdata", "markersonly")
	for b.Loop() {
		if files := controllerGen(b, dir); len(files) != 1 {
			b.Fatalf("controller-gen wrote %d files", len(files))
		}
	}
}
