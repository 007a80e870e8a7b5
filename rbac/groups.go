package rbac

import "strings"

// Groups reads a Subject from an authenticated user's name and groups the
// way the generated ValidatingAdmissionPolicy does when it takes the tenant
// from groups (policyTenantFrom: group): "<RolePrefix><role>" gives a role
// in the caller's own tenant, "<TenantPrefix><tenant>" that tenant (exactly
// one such group, else none), and "<TenantPrefix><tenant>:role:<role>" a
// role in that tenant only. A webhook or an operator that judges writes
// with the same Groups as modelgen.yaml's policy settings reaches the
// policy's verdicts.
type Groups struct {
	RolePrefix   string // "modelgen:role:"
	TenantPrefix string // "modelgen:tenant:"
	// ServiceAccounts give roles to user names (policyServiceAccounts):
	// those users act for the tenant of the object.
	ServiceAccounts map[string][]string
}

// ScopedRole separates the tenant from the role in a tenant-scoped role
// group.
const ScopedRole = ":role:"

// DefaultGroups are the policy's default prefixes, without service
// accounts.
func DefaultGroups() Groups {
	return Groups{RolePrefix: "modelgen:role:", TenantPrefix: "modelgen:tenant:"}
}

// SubjectFor is the subject a user acts as on an object of the given tenant
// (the old object's on an update or a delete, so that moving an object to
// another tenant stays refused). A caller with roles scoped to that tenant
// acts for it with them, and with its plain roles too when it is also its
// own tenant; any other caller acts for its own tenant with its plain roles.
func (g Groups) SubjectFor(user string, groups []string, tenant string) Subject {
	var roles, own, scoped []string
	for _, gr := range groups {
		if r, ok := strings.CutPrefix(gr, g.RolePrefix); ok && g.RolePrefix != "" {
			roles = append(roles, r)
		}
		if t, ok := strings.CutPrefix(gr, g.TenantPrefix); ok && g.TenantPrefix != "" {
			if strings.Contains(t, ScopedRole) {
				scoped = append(scoped, t)
			} else {
				own = append(own, t)
			}
		}
	}
	sa, isSA := g.ServiceAccounts[user]
	roles = append(roles, sa...)
	plain := ""
	if len(own) == 1 {
		plain = own[0]
	}
	s := Subject{Tenant: plain}
	if isSA {
		s.Tenant = tenant
	} else {
		for _, sc := range scoped {
			if strings.HasPrefix(sc, tenant+ScopedRole) {
				s.Tenant = tenant
				break
			}
		}
	}
	if isSA || s.Tenant == plain {
		s.Roles = roles
	}
	for _, sc := range scoped {
		if r, ok := strings.CutPrefix(sc, s.Tenant+ScopedRole); ok {
			s.Roles = append(s.Roles, r)
		}
	}
	return s
}
