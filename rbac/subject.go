package rbac

// Subject is who asks: the tenant it acts for and its roles. Both come
// from authentication; rbac trusts them.
type Subject struct {
	Tenant string
	Roles  []string
}
