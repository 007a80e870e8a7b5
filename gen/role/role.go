// Package role is the backend of the +kubebuilder:rbac markers of
// controller packages: it writes the operator's role, config/rbac/role.yaml,
// by running controller-tools' own rbac generator (the one controller-gen's
// `rbac:roleName=...` runs) on the packages the model loaded, so the rules
// are merged, sorted and split into a ClusterRole and namespaced Roles
// exactly as controller-gen v0.23.0 does.
//
// Its --only name is "role": "rbac" is the backend of the access-tag field
// filters and their per-role Role manifests (gen/rbac).
//
// One role.yaml is written per module, for the root packages of that
// module, as controller-gen writes one per run. Its name is the roleName
// setting (modelgen.yaml of an API package of the module; default
// manager-role, kubebuilder's) and it goes to the rbacDir setting (default
// config/rbac). A module without rbac markers gets no file.
package role

import (
	"path/filepath"
	"sort"

	"sigs.k8s.io/controller-tools/pkg/loader"
	ctrbac "sigs.k8s.io/controller-tools/pkg/rbac"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/gen/ctrun"
	"github.com/modelgen/modelgen/model"
)

// Name is the backend's --only name.
const Name = "role"

// DefaultRoleName is kubebuilder's scaffolded rbac:roleName.
const DefaultRoleName = "manager-role"

// FileName is controller-gen's name for the role file.
const FileName = "role.yaml"

// Generator writes role.yaml from +kubebuilder:rbac markers.
type Generator struct{}

func (Generator) Name() string { return Name }

func (Generator) Generate(c *gen.Context) ([]gen.File, model.Diagnostics) {
	var diags model.Diagnostics
	var files []gen.File
	dirs, groups := ctrun.ByModule(c.Model)
	for _, dir := range dirs {
		if dir == "" {
			continue
		}
		name, rbacDir, d := settings(c, dir)
		diags.Add(d)
		out, d := Generate(c.Model, groups[dir], ctrbac.Generator{RoleName: name}, nil)
		diags.Add(d)
		for _, o := range out {
			files = append(files, gen.File{Path: filepath.Join(dir, rbacDir, o.Name), Data: o.Data, Owner: owner(groups[dir])})
		}
	}
	return files, diags
}

// Generate runs controller-tools' rbac generator g on roots; read opens its
// headerFile (nil in the native run, where modelgen's header setting
// applies).
func Generate(m *model.Model, roots []*loader.Package, g ctrbac.Generator, read ctrun.Input) ([]ctrun.Output, model.Diagnostics) {
	return ctrun.Run(m, roots, g, "rbac", read)
}

// settings are the roleName and rbacDir of a module: those its API
// packages' modelgen.yaml set, which must agree.
func settings(c *gen.Context, dir string) (name, rbacDir string, diags model.Diagnostics) {
	name, rbacDir = DefaultRoleName, "config/rbac"
	var namedBy *model.Package
	pkgs := append([]*model.Package(nil), c.Model.Packages...)
	sort.Slice(pkgs, func(i, j int) bool { return pkgs[i].Path < pkgs[j].Path })
	for _, pk := range pkgs {
		if pk.ModDir != dir {
			continue
		}
		cfg := c.Config(pk)
		if cfg.RBACDir != "" {
			rbacDir = cfg.RBACDir
		}
		if cfg.RoleName == "" {
			continue
		}
		if namedBy != nil && cfg.RoleName != name {
			diags.Errorf(pk.Pos(), "roleName %q of %s differs from %q of %s: one module has one role.yaml and one role name", cfg.RoleName, pk.Path, name, namedBy.Path)
			continue
		}
		name, namedBy = cfg.RoleName, pk
	}
	return name, rbacDir, diags
}

func owner(roots []*loader.Package) string {
	paths := make([]string, 0, len(roots))
	for _, r := range roots {
		paths = append(paths, r.PkgPath)
	}
	sort.Strings(paths)
	if len(paths) == 0 {
		return ""
	}
	return paths[0]
}
