package rbac

import (
	"path/filepath"
	"strings"

	"github.com/modelgen/modelgen/gen"
)

// Outputs declares each package's zz_generated.rbac.go, the ClusterRoles
// (<group>_<role>_role.yaml in the RBAC directory) and, with roleViews,
// the role views beside the OpenAPI document (openapi.<role>.yaml).
func (Generator) Outputs(c *gen.Context) []gen.Output {
	var out []gen.Output
	for _, pk := range c.Model.Packages {
		cfg := c.Config(pk)
		out = append(out,
			gen.Output{Format: gen.FormatGo, Dir: pk.Dir, Name: FileName},
			gen.Output{Format: gen.FormatYAML, Dir: filepath.Join(pk.ModDir, cfg.RBACDir), Name: gen.Quote(pk.Group) + "_*_role.yaml"})
		if gen.Own(cfg, Settings{}).RoleViews {
			doc := filepath.Join(pk.Dir, cfg.OpenAPI)
			ext := filepath.Ext(doc)
			stem := strings.TrimSuffix(filepath.Base(doc), ext)
			out = append(out, gen.Output{Format: gen.FormatYAML, Dir: filepath.Dir(doc), Name: gen.Quote(stem) + ".*" + gen.Quote(ext)})
		}
	}
	return out
}

// Settings are the backend's settings of a package (modelgen.yaml).
type Settings struct {
	// RoleViews asks for one OpenAPI document per access role, beside the
	// OpenAPI document, holding only what the role can see.
	RoleViews bool `json:"roleViews"`
}

// Settings are the backend's settings (gen.Configurable): no role views
// unless asked.
func (Generator) Settings() any { return Settings{} }
