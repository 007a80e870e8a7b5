// Package filtered says which types get a generated access filter and how
// policies name them: the rbac backend generates the filters, the webhook
// backend calls them and the policy backend writes admission policies for
// the same types, so the three share this one answer instead of importing
// each other (a backend imports no other backend).
package filtered

import "github.com/modelgen/modelgen/model"

// Entries are the types of a package that get a generated filter: resource
// roots and +modelgen:model types with a tenant key and a field table.
func Entries(rules *model.AccessRules, pk *model.Package) []*model.TypeAccess {
	var out []*model.TypeAccess
	for _, t := range pk.Types {
		tr := rules.For(t)
		if tr == nil || !IsEntry(t) {
			continue
		}
		if tr.Flat && tr.Tenant >= 0 {
			out = append(out, tr)
		}
	}
	return out
}

// IsEntry reports a type a filter can start at: a resource root or a
// +modelgen:model type.
func IsEntry(t *model.Type) bool { return t.Model || t.Root && t.Resource != nil }

// TableName is a type's name in policies.
func TableName(t *model.Type) string {
	if t.Pkg.Group != "" {
		return t.Pkg.Group + "/" + t.Pkg.Version + "." + t.Name
	}
	return t.Pkg.Path + "." + t.Name
}
