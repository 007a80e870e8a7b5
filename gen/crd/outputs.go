package crd

import (
	"path/filepath"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/model"
)

// Outputs declares the CRDs, <group>_<plural>.yaml in each package's CRD
// directory.
func (Generator) Outputs(c *gen.Context) []gen.Output {
	var out []gen.Output
	for _, pk := range c.Model.Packages {
		out = append(out, gen.Output{Format: gen.FormatYAML, Dir: filepath.Join(pk.ModDir, c.Config(pk).CRDDir), Name: "*_*.yaml"})
	}
	return out
}

// ReadsSchemas: the CRDs are the CRD set's.
func (Generator) ReadsSchemas(*gen.Context) []model.Target {
	return []model.Target{model.TargetCRD}
}
