package webhookconfig

import (
	"path/filepath"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/gen/ctrun"
)

// Outputs declares each module's manifests.yaml in its webhook directory;
// controller-gen's is Artifacts.Dir/manifests.yaml.
func (g Generator) Outputs(c *gen.Context) []gen.Output {
	if g.ControllerGen != nil {
		return []gen.Output{g.Artifacts.Output(FileName)}
	}
	var out []gen.Output
	dirs, _ := ctrun.ByModule(c.Model)
	for _, dir := range dirs {
		if dir != "" {
			out = append(out, gen.Output{Format: gen.FormatYAML, Dir: filepath.Join(dir, webhookDir(c, dir)), Name: FileName})
		}
	}
	return out
}
