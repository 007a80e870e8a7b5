// Package gen holds the backends. A backend reads the model (and the
// schemas built from it) and returns files in memory; it never reads source
// files, never loads packages and never touches the disk. The CLI lists the
// backends explicitly and hands every file to one writer.
package gen

import (
	"sync"

	"github.com/modelgen/modelgen/model"
	"github.com/modelgen/modelgen/schema"
)

// File is one generated file.
type File struct {
	Path string // absolute path
	Data []byte
	// Owner is the import path of the package the file is generated from;
	// the writer uses it to find files a later run no longer generates.
	Owner string
	// Backend names the backend that generated the file (its --only
	// name), so that a run of some backends removes only their stale files.
	Backend string
}

// Config holds the settings of one package, from flags or modelgen.yaml.
type Config struct {
	Title       string `json:"title"`
	Version     string `json:"version"`
	Description string `json:"description"`
	// OpenAPI is the document's path relative to the package directory.
	OpenAPI string `json:"openapi"`
	// CRDDir is where CRDs go, relative to the module root.
	CRDDir string `json:"crdDir"`
	// RBACDir is where Role manifests go, relative to the module root.
	RBACDir string `json:"rbacDir"`
	// RoleViews asks for one OpenAPI document per access role, beside the
	// OpenAPI document, holding only what the role can see.
	RoleViews bool `json:"roleViews"`
	// DocsDir is where diagrams and docs go, relative to the package directory.
	DocsDir string `json:"docsDir"`
	// Agree asks for an agreement test in the package.
	Agree bool `json:"agree"`
	// Header is a file of Go comments (a licence) that heads the generated
	// Go files, relative to the package directory, as controller-gen's
	// headerFile.
	Header string `json:"header"`
}

// Context is what every backend receives.
type Context struct {
	Model *model.Model
	// Configs holds each package's settings, by import path.
	Configs map[string]Config
	// Hooks add to the schemas after the validate overlay (state machines,
	// access rules); they run for both targets.
	Hooks []schema.Hook
	// Extensions add x- extensions to property schemas of the OpenAPI
	// document (state machines, access rules), for the compatibility gate.
	Extensions []func(t *model.Type, f *model.Field) map[string]any

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
	s := schema.Build(c.Model, t, c.Hooks...)
	c.schemas[t] = s
	return s
}

// Config returns the settings of a package.
func (c *Context) Config(p *model.Package) Config {
	return c.Configs[p.Path]
}

// Generator is one backend.
type Generator interface {
	// Name is the backend's name on the command line (--only).
	Name() string
	// Generate returns the backend's files and diagnostics.
	Generate(c *Context) ([]File, model.Diagnostics)
}
