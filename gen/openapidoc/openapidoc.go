// Package openapidoc is the backend that writes each package's OpenAPI
// document (openapi.yaml beside the package unless configured otherwise).
package openapidoc

import (
	"path/filepath"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/internal/pipe"
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
	// Assembling a document asks the set's parser and stays in this
	// goroutine; finishing and rendering it run beside it (pipe.Ordered),
	// the files in the packages' order.
	type draft struct {
		pk    *model.Package
		draft *openapi.Draft
	}
	type done struct {
		file gen.File
		pos  model.Pos
		err  error
	}
	index := openapi.NewIndex(set) // one for every package's document
	results := pipe.Ordered(func(send func(draft)) {
		for _, pk := range c.Model.Packages {
			if !hasEntryPoint(pk) {
				continue
			}
			cfg := c.Config(pk)
			d, warnings, err := index.Assemble([]*model.Package{pk}, openapi.Info{Title: cfg.Title, Version: cfg.Version, Description: cfg.Description})
			diags = append(diags, warnings...)
			if err != nil {
				diags.Errorf(pk.Pos(), "%v", err)
				continue
			}
			send(draft{pk, d})
		}
	}, func(d draft) done {
		doc, err := d.draft.Finish()
		if err != nil {
			return done{pos: d.pk.Pos(), err: err}
		}
		data, err := openapi.YAML(doc)
		if err != nil {
			return done{pos: d.pk.Pos(), err: err}
		}
		return done{file: gen.File{Path: filepath.Join(d.pk.Dir, c.Config(d.pk).OpenAPI), Data: data, Owner: d.pk.Path}}
	})
	var files []gen.File
	for _, r := range results {
		if r.err != nil {
			diags.Errorf(r.pos, "%v", r.err)
			continue
		}
		files = append(files, r.file)
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
