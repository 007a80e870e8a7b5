// Package rbac is the backend of field-level access control. From the
// access rules of the model (model/accesstag) it generates, per package:
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
// The x-modelgen-access extension of the main OpenAPI document comes from
// accesstag.AccessExtensions, which the openapi package can import.
package rbac
