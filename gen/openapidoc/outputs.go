package openapidoc

import (
	"path/filepath"

	"github.com/modelgen/modelgen/gen"
)

// Outputs declares each package's OpenAPI document.
func (Generator) Outputs(c *gen.Context) []gen.Output {
	var out []gen.Output
	for _, pk := range c.Model.Packages {
		p := filepath.Join(pk.Dir, c.Config(pk).OpenAPI)
		out = append(out, gen.Output{Format: gen.FormatYAML, Dir: filepath.Dir(p), Name: gen.Quote(filepath.Base(p))})
	}
	return out
}
