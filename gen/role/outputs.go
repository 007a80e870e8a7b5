package role

import (
	"path/filepath"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/gen/ctrun"
)

// Outputs declares the role file of each module (roleFile, else
// <rbacDir>/role.yaml); controller-gen's role is Artifacts.Dir/role.yaml.
func (g Generator) Outputs(c *gen.Context) []gen.Output {
	if g.ControllerGen != nil {
		return []gen.Output{g.Artifacts.Output(FileName)}
	}
	var out []gen.Output
	dirs, _ := ctrun.ByModule(c.Model)
	for _, dir := range dirs {
		if dir == "" {
			continue
		}
		roles, _ := roles(c, dir)
		for _, r := range roles {
			p := filepath.Join(dir, r.file)
			out = append(out, gen.Output{Format: gen.FormatYAML, Dir: filepath.Dir(p), Name: gen.Quote(filepath.Base(p))})
		}
	}
	return out
}
