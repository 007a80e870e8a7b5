package accesstag

import "github.com/modelgen/modelgen/model"

// ExtensionName is the OpenAPI extension that carries a property's access
// rule; the compatibility gate (openapi/gate) reads it.
const ExtensionName = "x-modelgen-access"

// Access is the value of x-modelgen-access: the roles the property's own
// rule lets read and write it, sorted (`*` expanded to the package's roles).
// It is the rule of the property where it is declared; a role reaches a
// nested property only through containers it may read (or write) too.
type Access struct {
	Read   []string `json:"read"`
	Write  []string `json:"write"`
	Tenant bool     `json:"tenant,omitempty"` // the property holds the tenant key
}

// Value is the extension's value as a JSON-like tree, ready to be set in an
// openapi3 Extensions map or in a schema's JSON tree before it is decoded.
func (a Access) Value() map[string]any {
	return map[string]any{"read": append([]string{}, a.Read...), "write": append([]string{}, a.Write...)}
}

// TypeKey names a type across packages.
type TypeKey struct{ PkgPath, Name string }

// Extensions holds x-modelgen-access for every JSON property of every
// governed struct type, by type and JSON name. Inlined embedded structs add
// no property (their fields are properties of their own component) and
// fields JSON skips are not properties at all.
type Extensions map[TypeKey]map[string]Access

// AccessExtensions resolves the model's access rules into the values of
// x-modelgen-access. Types of packages without access tags or markers have
// none: the gate reads a property without the extension as open to every
// role. The diagnostics are those of Resolve.
func AccessExtensions(m *model.Model) (Extensions, model.Diagnostics) {
	rules, diags := Resolve(m)
	return rules.Extensions(), diags
}

// Extensions computes the extension values from resolved rules.
func (r *Rules) Extensions() Extensions {
	out := Extensions{}
	for t, tr := range r.Types {
		props := map[string]Access{}
		for _, fr := range tr.Fields {
			if fr.Field.JSONName == "" || fr.Field.Skip {
				continue
			}
			props[fr.Field.JSONName] = Access{Read: fr.Read, Write: fr.Write, Tenant: fr.Tenant}
		}
		out[TypeKey{t.Pkg.Path, t.Name}] = props
	}
	return out
}

// Property returns the extension value of one property, ok false when the
// type is not governed or has no such property.
func (e Extensions) Property(pkgPath, typeName, jsonName string) (map[string]any, bool) {
	a, ok := e[TypeKey{pkgPath, typeName}][jsonName]
	if !ok {
		return nil, false
	}
	return a.Value(), true
}

// Annotate adds x-modelgen-access to the properties of a schema JSON tree
// (as encoding/json decodes it into any) of the given type; it is what
// openapi.Document calls on each component of a user type, before the tree
// becomes an openapi3 schema. A $ref property keeps its extension as a
// sibling of the $ref, where kin-openapi and the gate read it.
func (e Extensions) Annotate(pkgPath, typeName string, tree any) {
	obj, _ := tree.(map[string]any)
	props, _ := obj["properties"].(map[string]any)
	for name, p := range props {
		prop, ok := p.(map[string]any)
		if !ok {
			continue
		}
		if v, ok := e.Property(pkgPath, typeName, name); ok {
			prop[ExtensionName] = v
		}
	}
}
