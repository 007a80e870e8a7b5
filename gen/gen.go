// Package gen holds the backends. A backend reads the model (and the
// schemas built from it) and returns files in memory; it never reads source
// files, never loads packages and never touches the disk. gen/all lists the
// backends, each declaring the files it may write; the CLI, the agreement
// harness and the fuzz target run that list and hand every file to one
// writer.
package gen

import (
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/modelgen/modelgen/model"
	"github.com/modelgen/modelgen/schema"
)

// File is one generated file.
type File struct {
	Path string // absolute path
	Data []byte
	// Owner is the import path of the package the file is generated from;
	// the writer uses it to find files a later run no longer generates. A
	// file generated from a whole module (the operator's role, the webhook
	// configuration, the admission policies' shared files: several
	// packages' markers or settings make it) is owned by the module
	// (ModuleOwner): a run that loaded only some of its packages writes it
	// when it generates it, but only a run over the whole module removes it.
	Owner string
	// Backend names the backend that generated the file (its --only
	// name), so that a run of some backends removes only their stale files.
	Backend string
}

// ModuleOwner is the Owner of a file generated from the whole module of
// the given path.
func ModuleOwner(module string) string { return "module " + module }

// Config holds the settings of one package, from flags or modelgen.yaml:
// its fields are those several backends read; each backend's own are a
// struct of its package (Own, settings.go).
type Config struct {
	// Title is the OpenAPI document's info.title (default: the API group,
	// else the package path).
	Title string `json:"title"`
	// Version is the OpenAPI document's info.version, the version the
	// compatibility gate judges.
	Version string `json:"version"`
	// Description is the OpenAPI document's info.description.
	Description string `json:"description"`
	// OpenAPI is the document's path relative to the package directory.
	OpenAPI string `json:"openapi" path:"package,file"`
	// CRDDir is where CRDs go, relative to the module root.
	CRDDir string `json:"crdDir" path:"module"`
	// RBACDir is where Role manifests go, relative to the module root.
	RBACDir string `json:"rbacDir" path:"module"`
	// Header is a file of Go comments (a licence) that heads the generated
	// Go files, relative to the package directory, as controller-gen's
	// headerFile.
	Header string `json:"header"`
	// GenerateEmbeddedObjectMeta gives an ObjectMeta embedded below the
	// root (a pod template's metadata) the structure of labels,
	// annotations, name, namespace and finalizers, as controller-gen's
	// crd:generateEmbeddedObjectMeta=true; without it the API server prunes
	// them.
	GenerateEmbeddedObjectMeta bool `json:"generateEmbeddedObjectMeta"`
	// ValidatorKeywords are the validate keywords the application registers
	// on its own validator (RegisterValidation), comma-separated: a use of
	// one in the package's tags is a run-time-only check, without the
	// unknown-keyword error and without a warning. No schema carries it; the
	// generated webhook enforces it with the application's validator (its
	// Validate field). Read by model.Load (model.Config.ValidatorKeywords),
	// not by a backend.
	ValidatorKeywords string `json:"validatorKeywords"`
	// IgnoreUnexportedFields and MaxDescLen are controller-gen's crd
	// options of the same names, set by `modelgen controller-gen`.
	IgnoreUnexportedFields bool `json:"-"`
	MaxDescLen             *int `json:"-"`

	own map[reflect.Type]any // each backend's settings, by type
}

// DefaultConfig is a package's settings when neither modelgen.yaml nor a
// flag says otherwise; a backend's own settings default to what its
// Configurable.Settings returns.
func DefaultConfig(p *model.Package) Config {
	cfg := Config{Title: p.Group, Version: "0.1.0", OpenAPI: "openapi.yaml", CRDDir: "config/crd/bases", RBACDir: "config/rbac"}
	if cfg.Title == "" {
		cfg.Title = p.Path
	}
	return cfg
}

// DefaultConfigs holds DefaultConfig of every package of the model.
func DefaultConfigs(m *model.Model) map[string]Config {
	out := map[string]Config{}
	for _, p := range m.Packages {
		out[p.Path] = DefaultConfig(p)
	}
	return out
}

// Run is the pipeline after loading, the one wiring the CLI and the
// agreement harness share: every backend runs on the resolved model and
// returns its files in memory. The diagnostics are the model's and the
// backends', sorted by position; when the model has errors no backend runs
// (and no file is returned), and a caller writes nothing when any
// diagnostic is an error.
func Run(m *model.Model, configs map[string]Config, backends []Backend) ([]File, model.Diagnostics) {
	return RunReplaying(m, configs, backends, nil)
}

// RunReplaying is Run in an incremental run: the Replayer backends make
// their module files of the loaded packages and the replayed parts.
func RunReplaying(m *model.Model, configs map[string]Config, backends []Backend, replay *Replay) ([]File, model.Diagnostics) {
	diags := append(model.Diagnostics(nil), m.Diags...)
	if diags.HasErrors() {
		return nil, diags.Sorted()
	}
	c := &Context{Model: m, Configs: configs, Replay: replay}
	var files []File
	for n, g := range backends {
		out, d := generate(g, c)
		diags.Add(d)
		for i := range out {
			out[i].Backend = g.Name()
		}
		files = append(files, out...)
		c.release(backends[n+1:])
	}
	if diags.HasErrors() {
		files = nil
	}
	return files, diags.Sorted()
}

// generate runs one backend. A backend that panics is a bug; the run then
// fails with an error that names the backend, instead of crashing.
func generate(g Backend, c *Context) (files []File, diags model.Diagnostics) {
	defer func() {
		if r := recover(); r != nil {
			files = nil
			pos := model.Pos{}
			if len(c.Model.Packages) > 0 {
				pos = c.Model.Packages[0].Pos()
			}
			diags.Errorf(pos, "internal error in the %s backend (please report it): %v", g.Name(), r)
		}
	}()
	return g.Generate(c)
}

// GoFiles are the generated Go files, by path: what internal/typecheck
// type-checks beside the user's before a writer writes them.
func GoFiles(files []File) map[string][]byte {
	out := map[string][]byte{}
	for _, f := range files {
		if strings.HasSuffix(f.Path, ".go") {
			out[f.Path] = f.Data
		}
	}
	return out
}

// Context is what every backend receives: the resolved model, the settings
// and the schemas built from the model, once per target.
type Context struct {
	Model *model.Model
	// Configs holds each package's settings, by import path.
	Configs map[string]Config
	// Replay, in an incremental run, holds the parts of the root packages
	// it did not load (Replayer); nil in a full run.
	Replay *Replay

	mu      sync.Mutex
	schemas map[model.Target]*schema.Set
}

// Schemas returns the schema set for a target, built once.
func (c *Context) Schemas(t model.Target) *schema.Set {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.schemas == nil {
		c.schemas = map[model.Target]*schema.Set{}
	}
	if s, ok := c.schemas[t]; ok {
		return s
	}
	s := schema.BuildWith(c.Model, t, c.schemaOptions())
	c.schemas[t] = s
	return s
}

// A SchemaReader is a backend that reads schema sets (Context.Schemas).
// ReadsSchemas names the targets whose sets it reads in this run, so that
// the run lets a set go once no backend left to run reads it: the CRD set
// after the CRD backend, the OpenAPI set after the OpenAPI backend unless
// role views read it again. A backend that reads a set it does not
// declare still gets it (built again: the same schemas, at their cost).
type SchemaReader interface {
	ReadsSchemas(c *Context) []model.Target
}

// release lets go of every schema set that none of the backends still to
// run declares it reads.
func (c *Context) release(rest []Backend) {
	var read []model.Target
	for _, g := range rest {
		if r, ok := g.(SchemaReader); ok {
			read = append(read, r.ReadsSchemas(c)...)
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for t := range c.schemas {
		if !slices.Contains(read, t) {
			delete(c.schemas, t)
		}
	}
}

// Held lists the targets whose schema sets the context holds, in target
// order: what a backend has read and the run has not let go.
func (c *Context) Held() []model.Target {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []model.Target
	for t := range c.schemas {
		out = append(out, t)
	}
	slices.Sort(out)
	return out
}

// Config returns the settings of a package.
func (c *Context) Config(p *model.Package) Config {
	return c.Configs[p.Path]
}

// Backend is one backend: it generates files from the model and declares
// every file it may write. The writer removes only files a backend declares
// (and --only narrows that to the backends that ran), and a run that
// returns a file its backend did not declare fails.
type Backend interface {
	// Name is the backend's name on the command line (--only).
	Name() string
	// Generate returns the backend's files and diagnostics.
	Generate(c *Context) ([]File, model.Diagnostics)
	// Outputs lists every file the backend may write for the run's packages
	// under their settings, whether or not this run writes it (so that a
	// file it wrote earlier is found and removed once it is no longer
	// generated).
	Outputs(c *Context) []Output
}
