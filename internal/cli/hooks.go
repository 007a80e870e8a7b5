package cli

import (
	"github.com/modelgen/modelgen/gen/statemachine"
	"github.com/modelgen/modelgen/model"
	"github.com/modelgen/modelgen/model/accesstag"
	"github.com/modelgen/modelgen/openapi/ext"
	"github.com/modelgen/modelgen/schema"
)

// extensions describe features in the OpenAPI document, for the gate:
// x-modelgen-state-machine on phase fields and x-modelgen-access on the
// properties of governed types.
func extensions(m *model.Model) []func(*model.Type, *model.Field) map[string]any {
	// the rbac backend reports the access rules' diagnostics
	access, _ := accesstag.AccessExtensions(m)
	accessExt := func(t *model.Type, f *model.Field) map[string]any {
		a, ok := access[accesstag.TypeKey{PkgPath: t.Pkg.Path, Name: t.Name}][f.JSONName]
		if !ok {
			return nil
		}
		return map[string]any{ext.AccessName: ext.Access{Read: a.Read, Write: a.Write, Tenant: a.Tenant}.Encode()}
	}
	return []func(*model.Type, *model.Field) map[string]any{statemachine.Extension, accessExt}
}

// hooks are the schema additions of features beyond validate tags.
func hooks() []schema.Hook {
	return []schema.Hook{statemachine.Hook}
}
