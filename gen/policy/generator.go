package policy

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/gen/internal/filtered"
	"github.com/modelgen/modelgen/model"
)

// Generator is the policy backend.
type Generator struct{}

// Name is the backend's name on the command line.
func (Generator) Name() string { return "policy" }

// DefaultDir is where policies go when modelgen.yaml does not say.
const DefaultDir = "config/policy"

// Generate writes, for every resource kind with access rules and a tenant
// key, a ValidatingAdmissionPolicy and its binding, and beside them the
// AccessPolicy CRD and the default (empty) AccessPolicy the bindings read.
func (Generator) Generate(c *gen.Context) ([]gen.File, model.Diagnostics) {
	var diags model.Diagnostics
	var files []gen.File
	var claims []claimsOf // each package's claims on the AccessPolicy files, by path
	versions := kindVersions(c)
	for _, pk := range c.Model.Packages {
		cfg := c.Config(pk)
		if optionsOf(cfg).Policy == "never" || pk.ModDir == "" || pk.Group == "" {
			continue
		}
		s, d := SettingsOf(pk, cfg)
		diags.Add(d)
		if d.HasErrors() {
			continue
		}
		dir := filepath.Join(pk.ModDir, dirOf(cfg))
		for _, tr := range filtered.Entries(c.Model.Access, pk) {
			t := tr.Type
			if !t.Root || t.Resource == nil {
				continue
			}
			f, d := kindFile(tr, s, dir, versions[KindOf(tr).Group+"/"+t.Resource.Kind] > 1)
			diags.Add(d)
			if f != nil {
				files = append(files, *f)
				claims = append(claims, claimsOf{pk.Path, []claim{{dir, gen.ModuleOwner(pk.Module), s.ParamName}}})
			}
		}
	}
	replayed, ok := replayedClaims(c)
	if !ok {
		diags.Errorf(model.Pos{}, "policy: the recorded part of a package cannot be replayed")
		return nil, diags
	}
	// in a full run's order (the model's packages are sorted by path), the
	// first kind of a directory names its files: shared by the module's kinds
	claims = append(claims, replayed...)
	sort.SliceStable(claims, func(i, j int) bool { return claims[i].Path < claims[j].Path })
	support := map[string][2]string{} // dir -> owner and name of the AccessPolicy files
	first := map[string]string{}      // dir -> the package that names them
	for _, cl := range claims {
		for _, k := range cl.Claims {
			named, ok := support[k.Dir]
			if !ok {
				support[k.Dir], first[k.Dir] = [2]string{k.Owner, k.Param}, cl.Path
				continue
			}
			if named[1] != k.Param {
				diags.Add(paramConflict(c, k, cl.Path, first[k.Dir], named[1]))
			}
		}
	}
	dirs := make([]string, 0, len(support))
	for d := range support {
		dirs = append(dirs, d)
	}
	sort.Strings(dirs)
	for _, d := range dirs {
		files = append(files, paramFiles(d, support[d][0], support[d][1])...)
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return files, diags
}

// paramConflict is the error of a package whose policies read the
// AccessPolicy named param in a policy directory whose AccessPolicy
// files the package first by path names otherwise: its bindings would
// read an AccessPolicy no file creates, and deny every request. It is
// positioned at the package's modelgen.yaml, or at the first package's
// when this one is replayed.
func paramConflict(c *gen.Context, k claim, path, firstPath, named string) model.Diagnostics {
	var diags model.Diagnostics
	at := model.Pos{File: k.Dir}
	for _, p := range []string{path, firstPath} {
		if i := slices.IndexFunc(c.Model.Packages, func(pk *model.Package) bool { return pk.Path == p }); i >= 0 {
			at = model.Pos{File: filepath.Join(c.Model.Packages[i].Dir, "modelgen.yaml"), Line: 1, Col: 1}
			break
		}
	}
	diags.Errorf(at, "setting \"policyParamName\": package %s names its AccessPolicy %q, but package %s, first in the policy directory %s, names the one there %q: the packages of one policy directory share one AccessPolicy; set the same policyParamName in both, or a policyDir of its own", path, k.Param, firstPath, k.Dir, named)
	return diags
}

// claim is a package's claim on the AccessPolicy files of a policy
// directory: it has a policy there, and would name them (owner, param
// name) were it the first package by path.
type claim struct {
	Dir   string `json:"dir"`
	Owner string `json:"owner"`
	Param string `json:"param"`
}

type claimsOf struct {
	Path   string
	Claims []claim
}

// Parts are each root package's claims on the AccessPolicy files
// (gen.Replayer), as a run without an error makes them: each kind with
// access rules and a tenant key has its policy.
func (Generator) Parts(c *gen.Context) (map[string][]byte, bool) {
	out := map[string][]byte{}
	for _, p := range c.Model.Loaded {
		out[p.PkgPath] = []byte("[]")
	}
	for _, pk := range c.Model.Packages {
		cfg := c.Config(pk)
		if optionsOf(cfg).Policy == "never" || pk.ModDir == "" || pk.Group == "" {
			continue
		}
		s, d := SettingsOf(pk, cfg)
		if d.HasErrors() {
			return nil, false
		}
		dir := filepath.Join(pk.ModDir, dirOf(cfg))
		var claims []claim
		for _, tr := range filtered.Entries(c.Model.Access, pk) {
			if tr.Type.Root && tr.Type.Resource != nil {
				claims = append(claims, claim{dir, gen.ModuleOwner(pk.Module), s.ParamName})
			}
		}
		data, err := json.Marshal(claims)
		if _, loaded := out[pk.Path]; err != nil || !loaded {
			return nil, false
		}
		if claims != nil {
			out[pk.Path] = data
		}
	}
	return out, true
}

// replayedClaims are the replayed packages' claims.
func replayedClaims(c *gen.Context) ([]claimsOf, bool) {
	var out []claimsOf
	for _, p := range c.Replayed("policy") {
		var claims []claim
		if json.Unmarshal(p.Data, &claims) != nil {
			return nil, false
		}
		out = append(out, claimsOf{p.Path, claims})
	}
	return out, true
}

func dirOf(cfg gen.Config) string {
	if d := optionsOf(cfg).PolicyDir; d != "" {
		return d
	}
	return DefaultDir
}

// KindOf describes the resource of a type with a tenant key.
func KindOf(tr *model.TypeAccess) Kind {
	t := tr.Type
	var segs []string
	for _, i := range chain(tr, tr.Tenant) {
		if f := tr.Table[i].Field; !f.Inline() {
			segs = append(segs, f.Field.JSONName)
		}
	}
	k := Kind{TypeName: filtered.TableName(t), TenantPath: tr.Table[tr.Tenant].Path, TenantSegments: segs, Group: t.Pkg.Group, Version: t.Pkg.Version}
	if t.Resource != nil {
		k.Plural, k.Status = t.Resource.Plural, t.Resource.Status
	}
	return k
}

// ForType builds and compiles the policy of one type; compile errors are
// positioned at the field the expression judges (the type for the
// policy's own expressions).
func ForType(tr *model.TypeAccess, k Kind, s Settings) ([]byte, model.Diagnostics) {
	var diags model.Diagnostics
	if r := tr.Type.Resource; s.TenantFrom == TenantFromNamespace && r != nil && !r.Namespaced {
		// every request of a cluster-scoped kind has the namespace "": the
		// policy would refuse every write
		diags.Errorf(tr.Type.Pos, "policy: %s is cluster-scoped: it has no namespace to take the tenant from (setting \"policyTenantFrom\": namespace, in %s); take the tenant from a group or a user extra, or make the kind namespaced",
			tr.Type.Name, filepath.Join(tr.Type.Pkg.Dir, "modelgen.yaml"))
		return nil, diags
	}
	checks := Checks(tr, s)
	p, b := Build(k, checks, s)
	for _, e := range CompileErrors(p, checks) {
		pos := tr.Type.Pos
		what := ""
		if e.Expr.Check != nil {
			pos, what = e.Expr.Check.Pos, " (judges "+e.Expr.Check.Path+")"
		}
		diags.Errorf(pos, "policy: %s %s%s: the API server's CEL compiler refuses it: %v", p.Name, e.Expr.Where, what, e.Err)
	}
	if diags.HasErrors() {
		return nil, diags
	}
	var out bytes.Buffer
	for i, obj := range []any{p, b} {
		data, err := manifest(obj)
		if err != nil {
			diags.Errorf(tr.Type.Pos, "policy: %v", err)
			return nil, diags
		}
		if i > 0 {
			out.WriteString("---\n")
		}
		out.Write(data)
	}
	return out.Bytes(), diags
}

// kindVersions counts, per group and kind, the API versions whose kind has
// access rules: a kind with rules in two versions gets a policy per
// version, each in a file that names its version.
func kindVersions(c *gen.Context) map[string]int {
	out := map[string]int{}
	for _, pk := range c.Model.Packages {
		if optionsOf(c.Config(pk)).Policy == "never" || pk.ModDir == "" || pk.Group == "" {
			continue
		}
		for _, tr := range filtered.Entries(c.Model.Access, pk) {
			if tr.Type.Root && tr.Type.Resource != nil {
				out[pk.Group+"/"+tr.Type.Resource.Kind]++
			}
		}
	}
	return out
}

func kindFile(tr *model.TypeAccess, s Settings, dir string, perVersion bool) (*gen.File, model.Diagnostics) {
	k := KindOf(tr)
	data, diags := ForType(tr, k, s)
	if data == nil {
		return nil, diags
	}
	name := k.Group + "_" + strings.ToLower(tr.Type.Resource.Kind) + "_access.yaml"
	if perVersion {
		name = k.Group + "_" + strings.ToLower(tr.Type.Resource.Kind) + "_" + tr.Type.Pkg.Version + "_access.yaml"
	}
	return &gen.File{Path: filepath.Join(dir, name), Data: data, Owner: tr.Type.Pkg.Path}, diags
}

// manifest writes an object as YAML without the empty status and
// creationTimestamp the API types marshal.
func manifest(obj any) ([]byte, error) {
	data, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	delete(m, "status")
	if md, ok := m["metadata"].(map[string]any); ok {
		delete(md, "creationTimestamp")
	}
	return yaml.Marshal(m)
}
