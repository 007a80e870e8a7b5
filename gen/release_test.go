package gen_test

import (
	"slices"
	"testing"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/model"
	"github.com/modelgen/modelgen/schema"
)

// schemaBackend reads the schema set of its target when read is set,
// declares the targets in reads, and records the set it got and the
// targets the context held when it started.
type schemaBackend struct {
	name  string
	read  bool
	reads []model.Target
	got   **schema.Set
	held  *[]model.Target
}

func (b schemaBackend) Name() string { return b.name }

func (b schemaBackend) Generate(c *gen.Context) ([]gen.File, model.Diagnostics) {
	*b.held = c.Held()
	if b.read {
		*b.got = c.Schemas(b.reads[0])
	}
	return nil, nil
}

func (schemaBackend) Outputs(*gen.Context) []gen.Output { return nil }

func (b schemaBackend) ReadsSchemas(*gen.Context) []model.Target { return b.reads }

// TestRunLetsEachSchemaSetGoAfterItsLastReader: a schema set stays held
// while a backend still to run declares it reads it (and that backend gets
// the set the first one built, not a second build), and is let go once
// the last of them has run.
func TestRunLetsEachSchemaSetGoAfterItsLastReader(t *testing.T) {
	var first, second, crdSet, unused *schema.Set
	var held [5][]model.Target
	openAPI, crdTarget := []model.Target{model.TargetOpenAPI}, []model.Target{model.TargetCRD}
	backends := []gen.Backend{
		schemaBackend{name: "first", read: true, reads: openAPI, got: &first, held: &held[0]},
		schemaBackend{name: "crd", read: true, reads: crdTarget, got: &crdSet, held: &held[1]},
		schemaBackend{name: "between", got: &unused, held: &held[2]},
		schemaBackend{name: "last", read: true, reads: openAPI, got: &second, held: &held[3]},
		schemaBackend{name: "after", got: &unused, held: &held[4]},
	}
	if _, diags := gen.Run(&model.Model{}, nil, backends); diags.HasErrors() {
		t.Fatal(diags)
	}
	want := [5][]model.Target{nil, openAPI, openAPI, openAPI, nil}
	for i := range want {
		if !slices.Equal(held[i], want[i]) {
			t.Errorf("backend %s started with the sets of %v held, want %v", backends[i].Name(), held[i], want[i])
		}
	}
	if first == nil || second != first {
		t.Error("the last reader of the OpenAPI set got a set of its own, not the one the first built")
	}
}
