// Package rbac is the backend of field-level access control. From the
// access rules model.Load resolved (model.Type.Access, model.Field.Access)
// it generates, per package:
//
//   - zz_generated.rbac.go: for each resource root or +modelgen:model type
//     with a tenant key, a field table and prune/compare/restore functions
//     made of bit tests and assignments, wrapped in an rbac.Type for the
//     run-time package github.com/modelgen/modelgen/rbac (no reflection);
//   - per module, under Config.RBACDir (default config/rbac), one
//     Kubernetes ClusterRole per API group and role, <group>_<role>_role.yaml,
//     granting the verbs the role's field rights imply (see Rights.Verbs);
//   - with roleViews: true in modelgen.yaml, one OpenAPI document per role,
//     openapi.<role>.yaml, holding only what the role can see (RoleView).
//
// The x-modelgen-access extension of the main OpenAPI document is written
// by the openapi package from the same resolved rules.
package rbac
