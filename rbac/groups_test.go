package rbac_test

import (
	"reflect"
	"testing"

	"github.com/modelgen/modelgen/rbac"
)

// TestGroupsSubjectFor: the subject read from groups for an object's
// tenant (rbac/internal/testtypes holds it to the generated policy on
// random callers; these are the cases a reader checks by eye).
func TestGroupsSubjectFor(t *testing.T) {
	g := rbac.DefaultGroups()
	g.ServiceAccounts = map[string][]string{"system:serviceaccount:sys:op": {"operator"}}
	support := []string{"system:authenticated", "modelgen:tenant:acme:role:tenant-admin", "modelgen:tenant:globex:role:auditor"}
	for _, c := range []struct {
		what, user string
		groups     []string
		tenant     string
		want       rbac.Subject
	}{
		{"today's groups", "u", []string{"modelgen:tenant:acme", "modelgen:role:clerk"}, "acme", rbac.Subject{Tenant: "acme", Roles: []string{"clerk"}}},
		{"today's groups, another tenant's object", "u", []string{"modelgen:tenant:acme", "modelgen:role:clerk"}, "globex", rbac.Subject{Tenant: "acme", Roles: []string{"clerk"}}},
		{"two tenants: none", "u", []string{"modelgen:tenant:acme", "modelgen:tenant:globex", "modelgen:role:clerk"}, "acme", rbac.Subject{Roles: []string{"clerk"}}},
		{"scoped roles in the object's tenant", "u", support, "acme", rbac.Subject{Tenant: "acme", Roles: []string{"tenant-admin"}}},
		{"scoped roles in the other", "u", support, "globex", rbac.Subject{Tenant: "globex", Roles: []string{"auditor"}}},
		{"no role in the object's tenant", "u", support, "initech", rbac.Subject{}},
		{"own tenant and scoped roles there add up", "u", []string{"modelgen:tenant:acme", "modelgen:role:clerk", "modelgen:tenant:acme:role:auditor"}, "acme", rbac.Subject{Tenant: "acme", Roles: []string{"clerk", "auditor"}}},
		{"plain roles hold in the own tenant only", "u", []string{"modelgen:tenant:acme", "modelgen:role:clerk", "modelgen:tenant:globex:role:auditor"}, "globex", rbac.Subject{Tenant: "globex", Roles: []string{"auditor"}}},
		{"a service account acts for the object's tenant", "system:serviceaccount:sys:op", []string{"system:serviceaccounts"}, "globex", rbac.Subject{Tenant: "globex", Roles: []string{"operator"}}},
	} {
		if got := g.SubjectFor(c.user, c.groups, c.tenant); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %+v, want %+v", c.what, got, c.want)
		}
	}
}
