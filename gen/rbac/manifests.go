package rbac

import (
	"path/filepath"
	"sort"

	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/model"
)

// Rights are what a role may do with a resource, from its field rules.
type Rights struct {
	Read, Write             bool // any field outside the status subresource (or any at all without one)
	ReadStatus, WriteStatus bool // any field under status, when the resource has a status subresource
}

// RoleRights computes a role's rights on a resource root: a row counts when
// the role may read (write) it and every container above it.
func RoleRights(tr *model.TypeAccess, role string) Rights {
	var r Rights
	status := tr.Type.Resource != nil && tr.Type.Resource.Status
	for i := range tr.Table {
		inStatus := status && topSegment(tr, i) == "status"
		for _, side := range []struct {
			write bool
			main  *bool
			stat  *bool
		}{{false, &r.Read, &r.ReadStatus}, {true, &r.Write, &r.WriteStatus}} {
			if !contains(tr.Effective(i, side.write), role) {
				continue
			}
			if inStatus {
				*side.stat = true
			} else {
				*side.main = true
			}
		}
	}
	return r
}

func topSegment(tr *model.TypeAccess, row int) string {
	for tr.Table[row].Parent >= 0 {
		row = tr.Table[row].Parent
	}
	return tr.Table[row].Field.Field.JSONName
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Verbs maps rights to Kubernetes verbs on the resource and on its status
// subresource: read gives get, list and watch; write gives create, update
// and patch; status rights give get (read) and update, patch (write) on
// <plural>/status. Reading status through the main resource needs read on
// it too. Delete is never implied by field rights.
func (r Rights) Verbs() (main, status []string) {
	if r.Read {
		main = append(main, "get", "list", "watch")
	}
	if r.Write {
		main = append(main, "create", "update", "patch")
	}
	if r.ReadStatus {
		status = append(status, "get")
	}
	if r.WriteStatus {
		status = append(status, "update", "patch")
	}
	return main, status
}

// manifests renders a ClusterRole per group and role under each module's
// RBAC directory: <module>/<rbacDir>/<group>_<role>_role.yaml, named
// <group>:<role>.
func manifests(c *gen.Context, rules *model.AccessRules) ([]gen.File, model.Diagnostics) {
	type groupKey struct{ dir, group string }
	resources := map[groupKey][]*model.TypeAccess{}
	for _, tr := range rules.Sorted() {
		t := tr.Type
		if !t.Root || t.Resource == nil || t.Pkg.Group == "" || !tr.Flat || t.Pkg.ModDir == "" {
			continue
		}
		k := groupKey{filepath.Join(t.Pkg.ModDir, c.Config(t.Pkg).RBACDir), t.Pkg.Group}
		resources[k] = append(resources[k], tr)
	}
	keys := make([]groupKey, 0, len(resources))
	for k := range resources {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].dir+"\x00"+keys[i].group < keys[j].dir+"\x00"+keys[j].group })
	var files []gen.File
	var diags model.Diagnostics
	for _, k := range keys {
		for _, role := range groupRoles(rules, resources[k]) {
			cr := clusterRole(k.group, role, resources[k])
			if len(cr.Rules) == 0 {
				continue
			}
			data, err := yaml.Marshal(cr)
			if err != nil {
				diags.Errorf(model.Pos{File: k.dir}, "rbac: %v", err)
				continue
			}
			files = append(files, gen.File{Path: filepath.Join(k.dir, k.group+"_"+role+"_role.yaml"), Data: data, Owner: resources[k][0].Type.Pkg.Path})
		}
	}
	return files, diags
}

func groupRoles(rules *model.AccessRules, trs []*model.TypeAccess) []string {
	set := map[string]bool{}
	for _, tr := range trs {
		for _, r := range rules.Roles[tr.Type.Pkg] {
			set[r] = true
		}
	}
	out := make([]string, 0, len(set))
	for r := range set {
		out = append(out, r)
	}
	sort.Strings(out)
	return out
}

// clusterRole merges a role's rights on every resource of a group (several
// API versions of one resource grant the union).
func clusterRole(group, role string, trs []*model.TypeAccess) *rbacv1.ClusterRole {
	byResource := map[string]map[string]bool{}
	add := func(resource string, verbs []string) {
		if len(verbs) == 0 {
			return
		}
		if byResource[resource] == nil {
			byResource[resource] = map[string]bool{}
		}
		for _, v := range verbs {
			byResource[resource][v] = true
		}
	}
	for _, tr := range trs {
		main, status := RoleRights(tr, role).Verbs()
		add(tr.Type.Resource.Plural, main)
		add(tr.Type.Resource.Plural+"/status", status)
	}
	names := make([]string, 0, len(byResource))
	for n := range byResource {
		names = append(names, n)
	}
	sort.Strings(names)
	cr := &rbacv1.ClusterRole{
		TypeMeta: metav1.TypeMeta{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "ClusterRole"},
		ObjectMeta: metav1.ObjectMeta{
			Name:   group + ":" + role,
			Labels: map[string]string{"app.kubernetes.io/managed-by": "modelgen", "modelgen.io/access-role": role},
		},
	}
	for _, n := range names {
		cr.Rules = append(cr.Rules, rbacv1.PolicyRule{APIGroups: []string{group}, Resources: []string{n}, Verbs: ordered(byResource[n])})
	}
	return cr
}

var verbOrder = []string{"get", "list", "watch", "create", "update", "patch"}

func ordered(set map[string]bool) []string {
	var out []string
	for _, v := range verbOrder {
		if set[v] {
			out = append(out, v)
		}
	}
	return out
}
