package deepcopy

import (
	"path/filepath"

	"github.com/modelgen/modelgen/gen"
)

// Outputs declares zz_generated.deepcopy.go in the directory of every
// package named on the command line (controller-gen's object generator
// decides by each one's markers) and of every package of the model.
func (Generator) Outputs(c *gen.Context) []gen.Output {
	var out []gen.Output
	for _, r := range c.Model.Loaded {
		if len(r.GoFiles) > 0 {
			out = append(out, gen.Output{Format: gen.FormatGo, Dir: filepath.Dir(r.GoFiles[0]), Name: FileName})
		}
	}
	for _, pk := range c.Model.Packages {
		out = append(out, gen.Output{Format: gen.FormatGo, Dir: pk.Dir, Name: FileName})
	}
	return out
}
