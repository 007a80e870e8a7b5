package policy

import (
	"fmt"
	"sort"
	"strings"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Tenant sources: where a request's tenant comes from.
const (
	TenantFromGroup     = "group"     // the one group with TenantPrefix
	TenantFromExtra     = "extra"     // the one value of the user extra TenantExtra
	TenantFromNamespace = "namespace" // the request's namespace
)

// Settings say how a Kubernetes request becomes an rbac.Subject.
type Settings struct {
	// RolePrefix: every group "<RolePrefix><role>" gives the role.
	RolePrefix string
	// TenantFrom is group, extra or namespace.
	TenantFrom   string
	TenantPrefix string // for group
	TenantExtra  string // for extra
	// ServiceAccounts are fixed identities with roles (an operator): they
	// act for the tenant of the object they write.
	ServiceAccounts []ServiceAccount
	// ExemptGroups and ExemptUsers are not judged at all (cluster admins,
	// the control plane's controllers).
	ExemptGroups, ExemptUsers []string
	// ParamName names the AccessPolicy that carries tenant overrides.
	ParamName string
	// BookkeepingAnnotations and BookkeepingLabels are metadata keys (a
	// key ending in "/" or "*" is a prefix) that tools write for their own
	// bookkeeping: not governed. LastApplied is always among the
	// annotations.
	BookkeepingAnnotations, BookkeepingLabels []string
}

// ScopedRole separates the tenant from the role in a tenant-scoped role
// group: "<TenantPrefix><tenant>:role:<role>" (modelgen:tenant:acme:role:clerk)
// gives the role in that tenant only.
const ScopedRole = ":role:"

// LastApplied is the annotation client-side kubectl apply writes on every
// apply.
const LastApplied = "kubectl.kubernetes.io/last-applied-configuration"

// ServiceAccount gives roles to one user name (system:serviceaccount:<ns>:<name>).
type ServiceAccount struct {
	User  string
	Roles []string
}

// DefaultSettings are what a package gets unless modelgen.yaml says otherwise.
func DefaultSettings() Settings {
	return Settings{
		RolePrefix:   "modelgen:role:",
		TenantFrom:   TenantFromGroup,
		TenantPrefix: "modelgen:tenant:",
		TenantExtra:  "modelgen.io/tenant",
		ExemptGroups: []string{"system:masters", "system:serviceaccounts:kube-system"},
		ExemptUsers:  []string{"system:kube-controller-manager"},
		ParamName:    DefaultParamName,
	}
}

// The parameter resource: one cluster-scoped AccessPolicy whose spec is
// rbac.PolicyDoc, so that the operator's Go guard and the API server read
// the same document.
const (
	ParamGroup       = "modelgen.io"
	ParamVersion     = "v1alpha1"
	ParamKind        = "AccessPolicy"
	ParamPlural      = "accesspolicies"
	DefaultParamName = "modelgen-access"
)

// Kind is what one policy governs.
type Kind struct {
	Group, Version, Plural string
	Status                 bool   // has a status subresource
	TypeName               string // the rbac table name ("<group>/<version>.<Type>")
	TenantPath             string // JSON path segments of the tenant key
	TenantSegments         []string
}

// Name is the policy's (and its binding's) name.
func (k Kind) Name() string {
	return k.Plural + "-" + k.Version + "-access." + k.Group
}

// Expr is one generated CEL expression and where it comes from, for
// diagnostics: "variables[2]", "validations[5].expression".
type Expr struct {
	Where string
	Text  string
	Check *Check // the row it judges, nil for the policy's own
}

// Build renders the policy and its binding.
func Build(k Kind, checks []Check, s Settings) (*admissionv1.ValidatingAdmissionPolicy, *admissionv1.ValidatingAdmissionPolicyBinding) {
	fail := admissionv1.Fail
	equivalent := admissionv1.Equivalent
	resources := []string{k.Plural}
	if k.Status {
		resources = append(resources, k.Plural+"/status")
	}
	labels := map[string]string{"app.kubernetes.io/managed-by": "modelgen"}
	p := &admissionv1.ValidatingAdmissionPolicy{
		TypeMeta:   metav1.TypeMeta{APIVersion: "admissionregistration.k8s.io/v1", Kind: "ValidatingAdmissionPolicy"},
		ObjectMeta: metav1.ObjectMeta{Name: k.Name(), Labels: labels},
		Spec: admissionv1.ValidatingAdmissionPolicySpec{
			FailurePolicy: &fail,
			ParamKind:     &admissionv1.ParamKind{APIVersion: ParamGroup + "/" + ParamVersion, Kind: ParamKind},
			MatchConstraints: &admissionv1.MatchResources{
				MatchPolicy: &equivalent,
				ResourceRules: []admissionv1.NamedRuleWithOperations{{RuleWithOperations: admissionv1.RuleWithOperations{
					Operations: []admissionv1.OperationType{admissionv1.Create, admissionv1.Update, admissionv1.Delete},
					Rule:       admissionv1.Rule{APIGroups: []string{k.Group}, APIVersions: []string{k.Version}, Resources: resources},
				}}},
			},
			MatchConditions: matchConditions(s),
			Variables:       append(variables(k, s), containers(checks)...),
			Validations:     validations(k, checks),
		},
	}
	deny := admissionv1.DenyAction
	b := &admissionv1.ValidatingAdmissionPolicyBinding{
		TypeMeta:   metav1.TypeMeta{APIVersion: "admissionregistration.k8s.io/v1", Kind: "ValidatingAdmissionPolicyBinding"},
		ObjectMeta: metav1.ObjectMeta{Name: k.Name(), Labels: labels},
		Spec: admissionv1.ValidatingAdmissionPolicyBindingSpec{
			PolicyName: k.Name(),
			// Deny: without its AccessPolicy the policy refuses every write
			// (fail closed); the generated default one holds no override.
			ParamRef:          &admissionv1.ParamRef{Name: s.ParamName, ParameterNotFoundAction: &deny},
			ValidationActions: []admissionv1.ValidationAction{admissionv1.Deny},
		},
	}
	return p, b
}

// Exprs lists every CEL expression of a policy, with where it sits.
func Exprs(p *admissionv1.ValidatingAdmissionPolicy, checks []Check) []Expr {
	var out []Expr
	for i, m := range p.Spec.MatchConditions {
		out = append(out, Expr{Where: fmt.Sprintf("matchConditions[%d] (%s)", i, m.Name), Text: m.Expression})
	}
	for i, v := range p.Spec.Variables {
		out = append(out, Expr{Where: fmt.Sprintf("variables[%d] (%s)", i, v.Name), Text: v.Expression})
	}
	fields := len(p.Spec.Validations) - len(checks)
	for i, v := range p.Spec.Validations {
		var c *Check
		if i >= fields {
			c = &checks[i-fields]
		}
		out = append(out, Expr{Where: fmt.Sprintf("validations[%d].expression", i), Text: v.Expression, Check: c})
		out = append(out, Expr{Where: fmt.Sprintf("validations[%d].messageExpression", i), Text: v.MessageExpression, Check: c})
	}
	return out
}

const groups = "(has(request.userInfo.groups) ? request.userInfo.groups : [])"

func matchConditions(s Settings) []admissionv1.MatchCondition {
	var out []admissionv1.MatchCondition
	if len(s.ExemptUsers) > 0 {
		out = append(out, admissionv1.MatchCondition{Name: "not-exempt-user", Expression: fmt.Sprintf("!(request.userInfo.username in %s)", list(s.ExemptUsers))})
	}
	if len(s.ExemptGroups) > 0 {
		out = append(out, admissionv1.MatchCondition{Name: "not-exempt-group", Expression: fmt.Sprintf("!%s.exists(g, g in %s)", groups, list(s.ExemptGroups))})
	}
	return out
}

func variables(k Kind, s Settings) []admissionv1.Variable {
	v := func(name, expr string) admissionv1.Variable {
		return admissionv1.Variable{Name: name, Expression: expr}
	}
	const groups = "variables.groups"
	roles := fmt.Sprintf("%s.filter(g, g.startsWith(%s)).map(g, g.substring(%d))", groups, quote(s.RolePrefix), len(s.RolePrefix))
	var users []string
	for _, sa := range sorted(s.ServiceAccounts) {
		roles += fmt.Sprintf(" + (request.userInfo.username == %s ? %s : [])", quote(sa.User), list(sa.Roles))
		users = append(users, sa.User)
	}
	// scoped: the tenant-scoped role groups "<TenantPrefix><tenant>:role:<role>",
	// as "<tenant>:role:<role>" (groups as the tenant source only)
	scoped := "[]"
	var tenants string
	switch s.TenantFrom {
	case TenantFromExtra:
		tenants = fmt.Sprintf("(has(request.userInfo.extra) && %s in request.userInfo.extra ? request.userInfo.extra[%s] : [])", quote(s.TenantExtra), quote(s.TenantExtra))
	case TenantFromNamespace:
		tenants = `(request.namespace != "" ? [request.namespace] : [])`
	default:
		n := len(s.TenantPrefix)
		tenants = fmt.Sprintf("%s.filter(g, g.startsWith(%s) && !g.substring(%d).contains(%s)).map(g, g.substring(%d))", groups, quote(s.TenantPrefix), n, quote(ScopedRole), n)
		scoped = fmt.Sprintf("%s.filter(g, g.startsWith(%s) && g.substring(%d).contains(%s)).map(g, g.substring(%d))", groups, quote(s.TenantPrefix), n, quote(ScopedRole), n)
	}
	allTenants := "false"
	if len(users) > 0 {
		allTenants = fmt.Sprintf("request.userInfo.username in %s", list(users))
	}
	over := fmt.Sprintf("params.?spec.?tenants[?variables.tenant].?types[?%s].orValue({})", quote(k.TypeName))
	return []admissionv1.Variable{
		v("old", "oldObject != null ? "+norm("oldObject")+" : {}"),
		// a DELETE has no object: it is judged as an update that changes
		// nothing (the tenant rules alone)
		v("cur", "object != null ? "+norm("object")+" : variables.old"),
		v("groups", "has(request.userInfo.groups) ? request.userInfo.groups : []"),
		v("allTenants", allTenants),
		v("newTenant", tenantOf("variables.cur", k.TenantSegments)),
		v("oldTenant", "oldObject != null ? "+tenantOf("variables.old", k.TenantSegments)+" : variables.newTenant"),
		v("callerTenants", tenants),
		v("plainTenant", `size(variables.callerTenants) == 1 ? variables.callerTenants[0] : ""`),
		v("scoped", scoped),
		// a caller with roles scoped to the object's tenant acts for it
		// (the old object's tenant: moving an object stays refused)
		v("tenant", fmt.Sprintf(`variables.allTenants ? variables.oldTenant : (variables.scoped.exists(s, s.startsWith(variables.oldTenant + %s)) ? variables.oldTenant : variables.plainTenant)`, quote(ScopedRole))),
		// the roles of the modelgen:role: groups hold in the caller's own
		// tenant; those scoped to the tenant acted for add to them
		v("groupRoles", roles),
		v("roles", fmt.Sprintf(`(variables.allTenants || variables.tenant == variables.plainTenant ? variables.groupRoles : []) + variables.scoped.filter(s, s.startsWith(variables.tenant + %s)).map(s, s.substring(size(variables.tenant) + %d))`, quote(ScopedRole), len(ScopedRole))),
		v("rolesText", `size(variables.roles) == 0 ? "no role" : "roles " + variables.roles.join(", ")`),
		v("listed", "!params.?spec.?listedTenantsOnly.orValue(false) || variables.tenant in params.?spec.?tenants.orValue({})"),
		v("over", over),
		// the role check every field rule shares: the caller's roles the
		// tenant does not override (judged by the access tags), and the
		// write paths of those it does
		v("tagRoles", "variables.roles.filter(r, !(r in variables.over))"),
		v("overWrites", "variables.roles.filter(r, r in variables.over && has(variables.over[r].write)).map(r, variables.over[r].write)"),
		// the message of every field rule: "<path>" + variables.refused + ...
		v("refused", `" may not be changed by " + request.userInfo.username + " with " + variables.rolesText`),
	}
}

// tenantOf reads the tenant key of a struct value without null fields
// through structs and pointers ("" when a struct on the way is absent, as
// Go reads a nil pointer's zero struct).
func tenantOf(obj string, segs []string) string {
	v := obj
	for _, s := range segs[:len(segs)-1] {
		v = norm(field(v, s, "{}"))
	}
	return field(v, segs[len(segs)-1], `""`)
}

// containers are the variables the field rules read, each once, after
// those it reads.
func containers(checks []Check) []admissionv1.Variable {
	var out []admissionv1.Variable
	seen := map[string]bool{}
	for _, c := range checks {
		for _, v := range c.Vars {
			if !seen[v.Name] {
				seen[v.Name] = true
				out = append(out, admissionv1.Variable{Name: v.Name, Expression: v.Expr})
			}
		}
	}
	return out
}

func validations(k Kind, checks []Check) []admissionv1.Validation {
	forbidden := metav1.StatusReasonForbidden
	val := func(expr, msg, msgExpr string) admissionv1.Validation {
		return admissionv1.Validation{Expression: expr, Message: msg, MessageExpression: msgExpr, Reason: &forbidden}
	}
	out := []admissionv1.Validation{
		val(`variables.tenant != ""`, "the request has no tenant",
			`request.userInfo.username + " has no tenant (want exactly one)"`),
		val("variables.listed", "the caller's tenant is not listed in the access policy",
			`"tenant " + variables.tenant + " is not listed in the access policy (listedTenantsOnly)"`),
		val(`variables.tenant == "" || variables.newTenant == variables.tenant`, k.TenantPath+" names another tenant",
			quote(k.TenantPath+" is ")+` + variables.newTenant + ", the caller acts for tenant " + variables.tenant`),
		val("variables.oldTenant == variables.newTenant", k.TenantPath+" may not change",
			quote(k.TenantPath+" may not change (from ")+` + variables.oldTenant + " to " + variables.newTenant + ")"`),
	}
	for _, c := range checks {
		writers := "no role"
		if len(c.Static) > 0 {
			writers = "role " + strings.Join(c.Static, ", ")
		}
		expr := fmt.Sprintf("%s || %s", unchanged(c.Changed), writable(c))
		msg := c.Path + " may not be changed by the caller's roles"
		msgExpr := quote(c.Path) + " + variables.refused + " + quote(" (the access tags let "+writers+" write it)")
		out = append(out, val(expr, msg, msgExpr))
	}
	return out
}

// unchanged negates a row's change: a single comparison a != b reads
// a == b, anything else !(...).
func unchanged(changed string) string {
	simple := !strings.Contains(changed, "||") && !strings.Contains(changed, "&&") && !strings.Contains(changed, " ? ") && !strings.Contains(changed, "exists(")
	if simple && strings.Count(changed, " != ") == 1 {
		return strings.Replace(changed, " != ", " == ", 1)
	}
	return "!(" + changed + ")"
}

// writable holds when one of the caller's roles may write the row: the
// tenant's override of the role when the access policy has one (it replaces
// the role's rights), else the tags' rights.
func writable(c Check) string {
	granted := "p in " + list(c.Grants)
	for _, w := range c.Within {
		granted += fmt.Sprintf(" || p.startsWith(%s)", quote(w))
	}
	over := fmt.Sprintf("variables.overWrites.exists(w, w.exists(p, %s))", granted)
	if len(c.Static) == 0 {
		return over
	}
	return fmt.Sprintf("variables.tagRoles.exists(r, r in %s) || %s", list(c.Static), over)
}

func sorted(sas []ServiceAccount) []ServiceAccount {
	out := append([]ServiceAccount(nil), sas...)
	sort.Slice(out, func(i, j int) bool { return out[i].User < out[j].User })
	return out
}
