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
// # Settings
//
// By default one role is written per module, from the markers of every
// package of the run in that module, as controller-gen writes one per run:
// <rbacDir>/role.yaml named manager-role (kubebuilder's name). The
// modelgen.yaml of an API package of the module may set roleName, rolePaths
// (the packages whose markers count: comma-separated patterns relative to
// the module root, ./x/... or ./x) and roleFile (relative to the module
// root), so that a module with two operators writes two roles; packages
// that name one roleFile must agree on the rest. Once a package of the
// module sets one of the three, the module has only the roles so declared.
// A role without markers is not written, nor is one whose rolePaths name
// packages the run's patterns do not cover (it would lack their markers).
package role

import (
	"encoding/json"
	"path/filepath"
	"sort"
	"strings"

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

// Settings are the backend's settings of a package (modelgen.yaml): empty
// is the default each names.
type Settings struct {
	// RoleName names the role written from the +kubebuilder:rbac markers
	// of the module's controllers (controller-gen's rbac:roleName; default
	// manager-role).
	RoleName string `json:"roleName"`
	// RolePaths are the packages (patterns relative to the module root,
	// comma-separated, as controller-gen's paths=) whose +kubebuilder:rbac
	// markers make that role; default every package of the run in the
	// module. A run whose patterns do not cover them all leaves the role
	// as it is.
	RolePaths string `json:"rolePaths"`
	// RoleFile is the role's file, relative to the module root (default
	// <rbacDir>/role.yaml).
	RoleFile string `json:"roleFile"`
}

// Settings are the backend's settings (gen.Configurable).
func (Generator) Settings() any { return Settings{} }

// Generator writes role.yaml from +kubebuilder:rbac markers.
type Generator struct {
	// ControllerGen, when set, is the rbac generator of `modelgen
	// controller-gen rbac:...`, with its options (roleName, headerFile,
	// year): one role from the markers of every package of the run, as
	// controller-gen writes it, in Artifacts.Dir; the role settings of
	// modelgen.yaml do not apply.
	ControllerGen *ctrbac.Generator
	Artifacts     ctrun.Artifacts
}

func (Generator) Name() string { return Name }

func (g Generator) Generate(c *gen.Context) ([]gen.File, model.Diagnostics) {
	if g.ControllerGen != nil {
		return ctrun.Generate(c.Model, "rbac", g.Artifacts.Read, []ctrun.Job{{Generator: *g.ControllerGen, Place: g.Artifacts.Place}})
	}
	var diags model.Diagnostics
	var jobs []ctrun.Job
	partial := map[string]partialRole{}
	roots, ok := ctrun.Roots(c, Name)
	owners, pok := replayedOwners(c)
	if len(c.Replayed(Name)) > 0 && (!ok || !pok || !defaultRoles(c)) {
		// the incremental run starts again as a full one
		diags.Errorf(model.Pos{}, "role: the recorded part of a package cannot be replayed")
		return nil, diags
	}
	dirs, groups := ctrun.ByRoots(roots)
	for _, dir := range dirs {
		if dir == "" {
			continue
		}
		roles, d := roles(c, dir)
		diags.Add(d)
		for _, r := range roles {
			path, owner := filepath.Join(dir, r.file), r.owner
			if owner == "" {
				// the module's API packages were replayed: the default
				// role is theirs, as in a full run
				owner = owners[dir]
			}
			if p := r.unloaded(c.Model, dir, groups[dir]); p != "" {
				partial[path] = partialRole{r, p}
			}
			jobs = append(jobs, ctrun.Job{
				Generator: ctrbac.Generator{RoleName: r.name},
				Roots:     r.roots(dir, groups[dir]),
				Place:     func(ctrun.Output) (string, string) { return path, owner },
			})
		}
	}
	files, d := ctrun.Generate(c.Model, "rbac", nil, jobs)
	diags.Add(d)
	if diags.HasErrors() {
		return nil, diags
	}
	out := files[:0]
	for _, f := range files {
		if p, ok := partial[f.Path]; ok {
			diags.Warnf(configPos(p.by), "role: %s (%s) is left as it is: its rolePaths entry %s names packages this run does not load, so the role would lack their +kubebuilder:rbac markers; run modelgen generate on them too (./... at the module root)", p.name, p.file, p.entry)
			continue
		}
		out = append(out, f)
	}
	return out, diags
}

// partialRole is a role whose rolePaths name packages the run's patterns do
// not cover (entry): the run would write it from some of its packages'
// markers only, so it writes nothing. A go:generate line per API package
// is such a run; it says so only when it would have written the role.
type partialRole struct {
	*role
	entry string
}

// unloaded is the first of the role's rolePaths entries that the run's
// patterns do not cover (gen.Covers), "" when they cover every one. A role
// of every package of the run (no rolePaths) is the run's, as
// controller-gen's rbac is its paths'.
func (r *role) unloaded(m *model.Model, dir string, pkgs []*loader.Package) string {
	modPath := ""
	for _, p := range pkgs {
		if p.Module != nil {
			modPath = p.Module.Path
			break
		}
	}
	for _, entry := range r.paths {
		covered := false
		for _, pat := range m.Patterns {
			if gen.Covers(pat, m.Dir, modPath, dir, entry) {
				covered = true
				break
			}
		}
		if !covered {
			return entry
		}
	}
	return ""
}

// Parts are each root package's +kubebuilder:rbac markers
// (gen.Replayer): the role of a module is made of them, when no package
// of the run sets a role setting or an rbacDir of its own (the role files
// are then the default ones, whichever packages a run loads).
func (g Generator) Parts(c *gen.Context) (map[string][]byte, bool) {
	if g.ControllerGen != nil || !defaultRoles(c) {
		return nil, false
	}
	marks, ok := ctrun.Parts(c.Model.Loaded, ctrbac.Generator{})
	if !ok {
		return nil, false
	}
	inModel := map[string]bool{}
	for _, pk := range c.Model.Packages {
		inModel[pk.Path] = pk.ModDir != "" && pk.Module != ""
	}
	out := map[string][]byte{}
	for path, data := range marks {
		p := part{Model: inModel[path]}
		if json.Unmarshal(data, &p.MarkerPart) != nil {
			return nil, false
		}
		b, err := json.Marshal(p)
		if err != nil {
			return nil, false
		}
		out[path] = b
	}
	return out, true
}

// part is a root package's part of its module's role: its markers, and
// whether it is a package of the model (the module's default role is
// then owned by the module, as roles makes it).
type part struct {
	ctrun.MarkerPart
	Model bool `json:"model,omitempty"`
}

// replayedOwners are, by module directory, the owner roles gives the
// default role of a module with a package of the model among the
// replayed ones.
func replayedOwners(c *gen.Context) (map[string]string, bool) {
	out := map[string]string{}
	for _, rp := range c.Replayed(Name) {
		var p part
		if json.Unmarshal(rp.Data, &p) != nil {
			return nil, false
		}
		if p.Model {
			out[model.ModuleRoot(filepath.Dir(p.File))] = gen.ModuleOwner(p.Module)
		}
	}
	return out, true
}

// defaultRoles: no package of the model sets roleName, rolePaths,
// roleFile or an rbacDir of its own.
func defaultRoles(c *gen.Context) bool {
	for _, pk := range c.Model.Packages {
		s, cfg := gen.Own(c.Config(pk), Settings{}), c.Config(pk)
		if s != (Settings{}) || filepath.Clean(cfg.RBACDir) != filepath.Join("config", "rbac") {
			return false
		}
	}
	return true
}

// role is one role file of a module and what makes it.
type role struct {
	name, file, owner string
	paths             []string
	by                *model.Package
}

// roles are the role files of a module, from its API packages' settings.
func roles(c *gen.Context, dir string) ([]*role, model.Diagnostics) {
	var diags model.Diagnostics
	byFile := map[string]*role{}
	pkgs := append([]*model.Package(nil), c.Model.Packages...)
	sort.Slice(pkgs, func(i, j int) bool { return pkgs[i].Path < pkgs[j].Path })
	declared := false
	for _, pk := range pkgs {
		s := gen.Own(c.Config(pk), Settings{})
		declared = declared || pk.ModDir == dir && s.RoleName+s.RolePaths+s.RoleFile != ""
	}
	for _, pk := range pkgs {
		s := gen.Own(c.Config(pk), Settings{})
		if pk.ModDir != dir || declared && s.RoleName+s.RolePaths+s.RoleFile == "" {
			continue
		}
		r, err := roleOf(s, c.Config(pk).RBACDir)
		if err != "" {
			diags.Errorf(configPos(pk), "role: %s", err)
			continue
		}
		r.by, r.owner = pk, gen.ModuleOwner(pk.Module)
		prev, ok := byFile[r.file]
		switch {
		case !ok:
			byFile[r.file] = r
		case prev.name != r.name || strings.Join(prev.paths, ",") != strings.Join(r.paths, ","):
			diags.Errorf(configPos(pk), "role: %s names the role file %s of %s with other settings (roleName %q, rolePaths %q; there %q, %q): one file, one role", pk.Path, r.file, prev.by.Path, r.name, strings.Join(r.paths, ","), prev.name, strings.Join(prev.paths, ","))
		}
	}
	if len(byFile) == 0 {
		// a module of controllers only: kubebuilder's defaults
		byFile[filepath.Join("config", "rbac", FileName)] = &role{name: DefaultRoleName, file: filepath.Join("config", "rbac", FileName)}
	}
	var out []*role
	for _, r := range byFile {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].file < out[j].file })
	return out, diags
}

func roleOf(cfg Settings, rbacDir string) (*role, string) {
	r := &role{name: cfg.RoleName, file: cfg.RoleFile}
	if r.name == "" {
		r.name = DefaultRoleName
	}
	if r.file == "" {
		dir := rbacDir
		if dir == "" {
			dir = filepath.Join("config", "rbac")
		}
		r.file = filepath.Join(dir, FileName)
	}
	r.file = filepath.Clean(r.file)
	switch {
	case filepath.IsAbs(r.file) || r.file == ".." || strings.HasPrefix(r.file, ".."+string(filepath.Separator)):
		return nil, "roleFile " + cfg.RoleFile + " must be relative to the module root and inside it"
	case filepath.Ext(r.file) != ".yaml" && filepath.Ext(r.file) != ".yml":
		return nil, "roleFile " + cfg.RoleFile + " must end in .yaml"
	}
	for _, p := range strings.Split(cfg.RolePaths, ",") {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		if !strings.HasPrefix(p, "./") && p != "." {
			return nil, "rolePaths entry " + p + " must start with ./ (a pattern relative to the module root)"
		}
		r.paths = append(r.paths, p)
	}
	return r, ""
}

// roots are the module's root packages whose markers make the role.
func (r *role) roots(dir string, all []*loader.Package) []*loader.Package {
	if len(r.paths) == 0 {
		return all
	}
	out := []*loader.Package{}
	for _, p := range all {
		rel, err := filepath.Rel(dir, filepath.Dir(p.GoFiles[0]))
		if err != nil {
			continue
		}
		for _, pat := range r.paths {
			if matches(filepath.ToSlash(rel), pat) {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// matches is the go command's reading of a relative package pattern: ./x
// is the package in x, ./x/... it and every package below it.
func matches(rel, pattern string) bool {
	pattern = strings.TrimPrefix(strings.TrimPrefix(pattern, "."), "/")
	if base, ok := strings.CutSuffix(pattern, "..."); ok {
		base = strings.TrimSuffix(base, "/")
		return base == "" || rel == base || strings.HasPrefix(rel, base+"/")
	}
	if pattern == "" {
		return rel == "."
	}
	return rel == pattern
}

func configPos(pk *model.Package) model.Pos {
	return model.Pos{File: filepath.Join(pk.Dir, "modelgen.yaml"), Line: 1, Col: 1}
}
