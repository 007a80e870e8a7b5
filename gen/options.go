package gen

import "github.com/modelgen/modelgen/schema"

// schemaOptions are the parser settings of the run's CRDs. They are
// controller-gen's crd generator options, which hold for a run as a whole:
// a package's modelgen.yaml that sets generateEmbeddedObjectMeta sets it
// for every package of the run.
func (c *Context) schemaOptions() schema.Options {
	var o schema.Options
	for _, cfg := range c.Configs {
		o.EmbeddedObjectMeta = o.EmbeddedObjectMeta || cfg.GenerateEmbeddedObjectMeta
		o.IgnoreUnexportedFields = o.IgnoreUnexportedFields || cfg.IgnoreUnexportedFields
	}
	return o
}

// MaxDescLen is the run's crd:maxDescLen (nil: descriptions are kept whole).
func (c *Context) MaxDescLen() *int {
	for _, cfg := range c.Configs {
		if cfg.MaxDescLen != nil {
			return cfg.MaxDescLen
		}
	}
	return nil
}
