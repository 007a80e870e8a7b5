package rbac

import (
	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/gen/internal/filtered"
	"github.com/modelgen/modelgen/model"
)

// Generator is the rbac backend.
type Generator struct{}

// Name is the backend's name on the command line.
func (Generator) Name() string { return "rbac" }

// Generate returns the Go filters, the ClusterRoles and the role views.
func (Generator) Generate(c *gen.Context) ([]gen.File, model.Diagnostics) {
	rules := c.Model.Access
	var diags model.Diagnostics
	diags.Add(uniqueTables(rules, c.Model.Packages))
	var files []gen.File
	for _, pk := range c.Model.Packages {
		warnUnfiltered(rules, pk, &diags)
		f, d := goCode(rules, pk)
		diags.Add(d)
		if f != nil {
			files = append(files, *f)
		}
	}
	for _, part := range []func(*gen.Context, *model.AccessRules) ([]gen.File, model.Diagnostics){manifests, views} {
		out, d := part(c, rules)
		files = append(files, out...)
		diags.Add(d)
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return files, diags
}

// warnUnfiltered warns about governed entry types that get no filter
// because they have no tenant key.
func warnUnfiltered(rules *model.AccessRules, pk *model.Package, diags *model.Diagnostics) {
	for _, t := range pk.Types {
		if tr := rules.For(t); tr != nil && filtered.IsEntry(t) && tr.Flat && tr.Tenant < 0 {
			diags.Warnf(t.Pos, "access: %s has no tenant key (a string field tagged access:\"tenant\"); no filter is generated for it", t.Name)
		}
	}
}

// uniqueTables reports two filtered types with one table name: policies
// name types by it, so it must tell them apart. Types of two packages with
// the same API group and version and the same name would share it.
func uniqueTables(rules *model.AccessRules, pkgs []*model.Package) model.Diagnostics {
	var diags model.Diagnostics
	first := map[string]*model.Type{}
	for _, pk := range pkgs {
		for _, tr := range filtered.Entries(rules, pk) {
			t := tr.Type
			name := filtered.TableName(t)
			if prev, ok := first[name]; ok {
				diags.Errorf(t.Pos, "access: the rbac table name %q of %s is also that of %s.%s (%s): policies could not tell them apart; give the packages different +groupName or versions, or rename one type", name, t.Name, prev.Pkg.Path, prev.Name, prev.Pos)
				continue
			}
			first[name] = t
		}
	}
	return diags
}
