package agree

import "github.com/modelgen/modelgen/gen"

// Outputs declares each package's agreement test.
func (Generator) Outputs(c *gen.Context) []gen.Output {
	var out []gen.Output
	for _, pk := range c.Model.Packages {
		out = append(out, gen.Output{Format: gen.FormatGo, Dir: pk.Dir, Name: FileName})
	}
	return out
}
