package statemachine_test

import (
	"sync"
	"testing"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/gen/statemachine"
	"github.com/modelgen/modelgen/model"
)

// The testdata packages are loaded once: loading is the slow part.
var (
	machinePkg = sync.OnceValues(func() (*model.Model, error) {
		return model.Load(model.Config{Dir: "testdata", Patterns: []string{"./machine"}})
	})
)

func load(t *testing.T, which func() (*model.Model, error)) *model.Model {
	t.Helper()
	m, err := which()
	if err != nil {
		t.Fatal(err)
	}
	if m.Diags.HasErrors() {
		t.Fatalf("loading testdata: %v", m.Diags)
	}
	return m
}

// generate runs the backend as the CLI does: Load resolved and checked the
// machines, and Run adds the backend's diagnostics and both schema
// targets' (through the OpenAPI backend, which builds them).
func generate(t *testing.T, m *model.Model) ([]gen.File, model.Diagnostics) {
	t.Helper()
	files, diags := gen.Run(m, map[string]gen.Config{}, []gen.Backend{statemachine.Generator{}})
	if !diags.HasErrors() {
		c := &gen.Context{Model: m, Configs: map[string]gen.Config{}}
		for _, target := range []model.Target{model.TargetOpenAPI, model.TargetCRD} {
			diags.Add(c.Schemas(target).Diags)
		}
	}
	return files, diags
}
