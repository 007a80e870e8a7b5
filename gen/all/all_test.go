package all_test

import (
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/gen/all"
	"github.com/modelgen/modelgen/model"
)

// examples are the example operators, loaded once: every backend has
// something to write for them.
var examples = sync.OnceValues(func() (*model.Model, error) {
	return model.Load(model.Config{Dir: "../../examples", Patterns: []string{"./..."}})
})

// exampleConfigs turn on what is off by default (role views, agreement
// tests), so that every output is written.
func exampleConfigs(m *model.Model) map[string]gen.Config {
	configs := gen.DefaultConfigs(m)
	keys, err := all.Keys()
	if err != nil {
		panic(err)
	}
	for path, c := range configs {
		for _, k := range keys {
			if k.Name == "roleViews" || k.Name == "agree" {
				c = c.With(k, true)
			}
		}
		configs[path] = c
	}
	return configs
}

// TestEveryFileIsDeclared runs every backend on the examples: each file is
// one of the outputs its backend declares (all.Generate would fail otherwise),
// each output's directory is absolute, and every backend wrote files the
// writer can thus find again.
func TestEveryFileIsDeclared(t *testing.T) {
	m, err := examples()
	if err != nil {
		t.Fatal(err)
	}
	configs := exampleConfigs(m)
	files, diags := all.Generate(m, configs, all.Backends())
	if diags.HasErrors() {
		t.Fatalf("all.Generate: %v", diags)
	}
	wrote := map[string]int{}
	for _, f := range files {
		wrote[f.Backend]++
	}
	for _, name := range all.Names() {
		if name == "webhookconfig" {
			continue // no example has +kubebuilder:webhook markers
		}
		if wrote[name] == 0 {
			t.Errorf("the %s backend wrote nothing for the examples; the test no longer covers its outputs", name)
		}
	}
	outputs := gen.Declared(m, configs, all.Backends())
	for _, o := range outputs {
		if !filepath.IsAbs(o.Dir) || o.Format == 0 || !slices.Contains(all.Names(), o.Backend) {
			t.Errorf("output %v: want an absolute directory, a format and a backend of the list", o)
		}
	}
	if d := gen.CheckOutputs(m, configs, all.Backends(), files); len(d) > 0 {
		t.Errorf("CheckOutputs: %v", d)
	}
}

// stray is a backend that writes a file it does not declare.
type stray struct{}

func (stray) Name() string { return "stray" }

func (s stray) Generate(c *gen.Context) ([]gen.File, model.Diagnostics) {
	pk := c.Model.Packages[0]
	return []gen.File{{Path: filepath.Join(pk.Dir, "zz_generated.stray.go"), Data: []byte("package x\n"), Owner: pk.Path}}, nil
}

func (stray) Outputs(*gen.Context) []gen.Output { return nil }

type declaring struct{ stray }

func (declaring) Outputs(c *gen.Context) []gen.Output {
	pk := c.Model.Packages[0]
	return []gen.Output{{Format: gen.FormatGo, Dir: pk.Dir, Name: "zz_generated.other.go"}}
}

// TestUndeclaredFileIsAnError: a file its backend does not declare (or a
// file of a backend that declares nothing) fails the run at the package
// it is generated from, and no file is returned.
func TestUndeclaredFileIsAnError(t *testing.T) {
	m, err := examples()
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range []gen.Backend{stray{}, declaring{}} {
		files, diags := all.Generate(m, exampleConfigs(m), []gen.Backend{g})
		msg := diags.Error()
		if len(files) > 0 || !diags.HasErrors() || !strings.Contains(msg, "stray backend") || !strings.Contains(msg, "zz_generated.stray.go, which is not among the files it declares") || diags[0].Pos.File == "" {
			t.Errorf("%T: want no files and a positioned error, got %d files and %v", g, len(files), diags)
		}
	}
}

// TestSelect: --only picks backends of the list by name, in the order
// given; an unknown name is an error naming the known ones.
func TestSelect(t *testing.T) {
	got, err := all.Select("rbac, crd")
	if err != nil || len(got) != 2 || got[0].Name() != "rbac" || got[1].Name() != "crd" {
		t.Errorf("Select(rbac, crd) = %v, %v", got, err)
	}
	if got, err := all.Select("crd,rbac,crd"); err != nil || len(got) != 2 || got[0].Name() != "crd" || got[1].Name() != "rbac" {
		t.Errorf("Select(crd,rbac,crd) = %v, %v; want crd and rbac, each once", got, err)
	}
	if got, err := all.Select(""); err != nil || len(got) != len(all.Names()) {
		t.Errorf("Select(\"\") = %d backends, %v; want all %d", len(got), err, len(all.Names()))
	}
	if _, err := all.Select("crd,nope"); err == nil || !strings.Contains(err.Error(), `unknown backend "nope" (have openapi,crd,`) {
		t.Errorf("Select(crd,nope): %v", err)
	}
}

// TestKeys: the backends' settings declare each key of modelgen.yaml once,
// and all.Set sets a backend's setting by its key.
func TestKeys(t *testing.T) {
	keys, err := all.Keys()
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, k := range keys {
		names[k.Name] = true
	}
	for _, want := range []string{"title", "crdDir", "docsDir", "roleViews", "webhook", "webhookDir", "policyDir", "roleName", "agree"} {
		if !names[want] {
			t.Errorf("no setting %q among %v", want, keys)
		}
	}
	cfg, err := all.Set(gen.Config{}, "docsDir", "diagrams")
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		if k.Name == "docsDir" && cfg.Get(k) != "diagrams" {
			t.Errorf("docsDir = %v after Set", cfg.Get(k))
		}
	}
	if _, err := all.Set(cfg, "docsDir", true); err == nil {
		t.Error("Set(docsDir, true): no error")
	}
	if _, err := all.Set(cfg, "colour", "red"); err == nil {
		t.Error("Set(colour): no error")
	}
}

// TestEveryBackendDeclaresTheSchemasItReads runs each backend alone on the
// examples (role views on): every schema set it reads is one it declares
// (gen.SchemaReader), since a run lets a set go once no backend still to
// run declares it, and a reader it did not know of would build it again.
func TestEveryBackendDeclaresTheSchemasItReads(t *testing.T) {
	m, err := examples()
	if err != nil {
		t.Fatal(err)
	}
	configs := exampleConfigs(m)
	for _, b := range all.Backends() {
		c := &gen.Context{Model: m, Configs: configs}
		if _, diags := b.Generate(c); diags.HasErrors() {
			t.Fatalf("%s: %v", b.Name(), diags)
		}
		var declared []model.Target
		if r, ok := b.(gen.SchemaReader); ok {
			declared = r.ReadsSchemas(c)
		}
		for _, read := range c.Held() {
			if !slices.Contains(declared, read) {
				t.Errorf("the %s backend reads the schema set of target %v and does not declare it (ReadsSchemas: %v)", b.Name(), read, declared)
			}
		}
	}
}
