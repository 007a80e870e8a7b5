package rbac

import (
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
)

// Field is one row of a generated field table.
type Field struct {
	// Path is the JSON path from the type: "spec.payerId",
	// "spec.items[].price", "spec.byRegion{}.limit"; an inlined embedded
	// struct is named by its Go type in parentheses, "(TypeMeta)".
	Path string
	// Parent is the row of the enclosing container, -1 at the top. Rows are
	// in depth-first order: a parent comes before its children.
	Parent int
	// Read and Write are the roles the field's own rule names, sorted.
	Read, Write []string
}

// Table is the field table of one generated type: its rows, the row of its
// tenant key, and the rights the tags give each role.
type Table struct {
	id     uint64 // distinguishes tables in cache keys
	name   string
	fields []Field
	tenant int
	roles  []string
	byPath map[string]int
	static map[string]*masks // per role, from the tags
	err    error
}

var tableIDs atomic.Uint64

// NewTable checks and indexes a generated field table. A malformed table
// (only possible when generated code is edited by hand) does not panic: every
// call on it is denied with the error, which Err reports.
func NewTable(name string, tenant int, fields []Field) *Table {
	t := &Table{id: tableIDs.Add(1), name: name, fields: fields, tenant: tenant, byPath: map[string]int{}, static: map[string]*masks{}}
	t.err = t.check()
	if t.err != nil {
		return t
	}
	for _, f := range fields {
		for _, r := range append(slices.Clone(f.Read), f.Write...) {
			if !slices.Contains(t.roles, r) {
				t.roles = append(t.roles, r)
			}
		}
	}
	slices.Sort(t.roles)
	for _, r := range t.roles {
		t.static[r] = t.compileRole(r)
	}
	return t
}

func (t *Table) check() error {
	if t.name == "" {
		return errors.New("rbac: table without a name")
	}
	if t.tenant < 0 || t.tenant >= len(t.fields) {
		return fmt.Errorf("rbac: %s: tenant row %d out of range", t.name, t.tenant)
	}
	for i, f := range t.fields {
		if f.Parent < -1 || f.Parent >= i {
			return fmt.Errorf("rbac: %s: row %d (%s): parent %d must come before it", t.name, i, f.Path, f.Parent)
		}
		if _, dup := t.byPath[f.Path]; dup || f.Path == "" {
			return fmt.Errorf("rbac: %s: row %d: empty or duplicate path %q", t.name, i, f.Path)
		}
		t.byPath[f.Path] = i
		for _, r := range append(slices.Clone(f.Read), f.Write...) {
			if msg := checkRole(r); msg != "" {
				return fmt.Errorf("rbac: %s: %s: %s", t.name, f.Path, msg)
			}
		}
	}
	return nil
}

// compileRole computes a role's masks from the tags: a row is in them when
// the role is named by the row's rule and by every container above it.
func (t *Table) compileRole(role string) *masks {
	m := newMasks(len(t.fields))
	for i, f := range t.fields {
		parentRead := f.Parent < 0 || m.read.Has(f.Parent)
		parentWrite := f.Parent < 0 || m.write.Has(f.Parent)
		if parentRead && slices.Contains(f.Read, role) {
			m.read.set(i)
		}
		if parentWrite && slices.Contains(f.Write, role) {
			m.write.set(i)
		}
	}
	return m
}

// compileGrant computes the masks of a policy override: a listed path
// grants its row and every row inside it, and its containers as containers.
func (t *Table) compileGrant(read, write []string) (*masks, error) {
	m := newMasks(len(t.fields))
	for _, side := range []struct {
		paths []string
		mask  Mask
	}{{read, m.read}, {write, m.write}} {
		granted := make([]bool, len(t.fields))
		for _, p := range side.paths {
			if p == "*" {
				for i := range granted {
					granted[i] = true
				}
				continue
			}
			i, ok := t.byPath[p]
			if !ok {
				return nil, fmt.Errorf("%s has no field %q", t.name, p)
			}
			granted[i] = true
		}
		for i, f := range t.fields {
			if granted[i] || f.Parent >= 0 && granted[f.Parent] {
				granted[i] = true
				for j := i; j >= 0 && !side.mask.Has(j); j = t.fields[j].Parent {
					side.mask.set(j)
				}
			}
		}
	}
	return m, nil
}

// Name is the type's name in policies: "<group>/<version>.<Type>" for API
// packages, "<import path>.<Type>" otherwise.
func (t *Table) Name() string { return t.name }

// Fields returns the rows (do not modify them).
func (t *Table) Fields() []Field { return t.fields }

// Tenant is the row of the tenant key.
func (t *Table) Tenant() int { return t.tenant }

// Roles are the roles the tags name, sorted.
func (t *Table) Roles() []string { return slices.Clone(t.roles) }

// Err reports a malformed table.
func (t *Table) Err() error { return t.err }

// paths lists the rows of a mask.
func (t *Table) paths(m Mask) []string {
	var out []string
	for i, f := range t.fields {
		if m.Has(i) {
			out = append(out, f.Path)
		}
	}
	return out
}

// checkRole is accesstag.CheckRole, repeated to keep rbac free of
// modelgen's dependencies.
func checkRole(name string) string {
	if name == "" || len(name) > 63 {
		return fmt.Sprintf("role name %q must have 1 to 63 characters", name)
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		alnum := c >= 'a' && c <= 'z' || c >= '0' && c <= '9'
		if !alnum && (c != '-' || i == 0 || i == len(name)-1) {
			return fmt.Sprintf("invalid role name %q: want lower-case letters, digits and '-', starting and ending with a letter or digit", name)
		}
	}
	return ""
}
