package policy

import (
	"path/filepath"

	"github.com/modelgen/modelgen/gen"
)

// Outputs declares the policies, their bindings and the AccessPolicy
// files in the policy directory of each package in a module.
func (Generator) Outputs(c *gen.Context) []gen.Output {
	var out []gen.Output
	for _, pk := range c.Model.Packages {
		if pk.ModDir != "" {
			out = append(out, gen.Output{Format: gen.FormatYAML, Dir: filepath.Join(pk.ModDir, dirOf(c.Config(pk))), Name: "*.yaml"})
		}
	}
	return out
}
