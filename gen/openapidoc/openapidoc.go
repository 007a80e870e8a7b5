// Package openapidoc is the backend that writes each package's OpenAPI
// document (openapi.yaml beside the package unless configured otherwise).
package openapidoc

import (
	"path/filepath"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/model"
	"github.com/modelgen/modelgen/openapi"
)

// Generator writes OpenAPI documents.
type Generator struct{}

func (Generator) Name() string { return "openapi" }

func (Generator) Generate(c *gen.Context) ([]gen.File, model.Diagnostics) {
	set := c.Schemas(model.TargetOpenAPI)
	diags := append(model.Diagnostics(nil), set.Diags...)
	if diags.HasErrors() {
		return nil, diags
	}
	// every rule the documents will carry compiles (at the CRDs' minimum
	// Kubernetes, or a warning names the version a rule needs)
	rules := set.CompileRules(c.Model.SortedTypes())
	diags = append(diags, rules...)
	if rules.HasErrors() {
		return nil, diags
	}
	var files []gen.File
	index := openapi.NewIndex(set) // one for every package's document
	for _, pk := range c.Model.Packages {
		if !hasEntryPoint(pk) {
			continue
		}
		cfg := c.Config(pk)
		doc, warnings, err := index.Build([]*model.Package{pk}, openapi.Info{Title: cfg.Title, Version: cfg.Version, Description: cfg.Description})
		diags = append(diags, warnings...)
		if err != nil {
			diags.Errorf(pk.Pos(), "%v", err)
			continue
		}
		data, err := openapi.YAML(doc)
		if err != nil {
			diags.Errorf(pk.Pos(), "%v", err)
			continue
		}
		files = append(files, gen.File{Path: filepath.Join(pk.Dir, cfg.OpenAPI), Data: data, Owner: pk.Path})
	}
	return files, diags
}

// hasEntryPoint reports whether the package declares a root or a model.
func hasEntryPoint(pk *model.Package) bool {
	for _, t := range pk.Types {
		if t.Root || t.Model {
			return true
		}
	}
	return false
}

// ReadsSchemas: the documents are the OpenAPI set's.
func (Generator) ReadsSchemas(*gen.Context) []model.Target {
	return []model.Target{model.TargetOpenAPI}
}
