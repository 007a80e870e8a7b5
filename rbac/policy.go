package rbac

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
)

// PolicyDoc is the JSON form of a policy.
type PolicyDoc struct {
	// ListedTenantsOnly denies every tenant the policy does not list.
	ListedTenantsOnly bool                 `json:"listedTenantsOnly,omitempty"`
	Tenants           map[string]TenantDoc `json:"tenants,omitempty"`
}

// TenantDoc holds one tenant's overrides: type name -> role -> grant.
type TenantDoc struct {
	Types map[string]map[string]Grant `json:"types,omitempty"`
}

// Grant is what a role may read and write on a type: JSON paths of the
// type's field table, or "*" for every field.
type Grant struct {
	Read  []string `json:"read,omitempty"`
	Write []string `json:"write,omitempty"`
}

// Policy is a checked, compiled, immutable PolicyDoc.
type Policy struct {
	doc        PolicyDoc
	listedOnly bool
	tenants    map[string]map[*Table]map[string]*masks
}

// ParsePolicy reads a JSON policy strictly (unknown keys are errors) and
// checks it against the tables of the types it may name.
func ParsePolicy(data []byte, tables ...*Table) (*Policy, error) {
	var doc PolicyDoc
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("rbac: policy: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("rbac: policy: data after the JSON document")
	}
	return NewPolicy(doc, tables...)
}

// NewPolicy checks and compiles a policy. Every type it names must be one of
// the tables; every path must be a row of that table; every role and tenant
// name must be valid. Two different tables with one name are refused (a
// table passed twice is fine).
func NewPolicy(doc PolicyDoc, tables ...*Table) (*Policy, error) {
	byName := map[string]*Table{}
	for _, t := range tables {
		if t == nil {
			return nil, &InvalidError{Op: "NewPolicy", Reason: "nil table"}
		}
		if t.err != nil {
			return nil, t.err
		}
		if other, ok := byName[t.name]; ok && other != t {
			// two packages (one go:generate run each) with one group and
			// version: a policy could not tell their types apart
			return nil, &InvalidError{Op: "NewPolicy", Reason: fmt.Sprintf("two different tables are named %q; "+
				"a policy could not tell their types apart: give their packages different +groupName or versions, or rename one type", t.name)}
		}
		byName[t.name] = t
	}
	p := &Policy{doc: doc, listedOnly: doc.ListedTenantsOnly, tenants: map[string]map[*Table]map[string]*masks{}}
	var errs []error
	for _, tenant := range sortedKeys(doc.Tenants) {
		if tenant == "" {
			errs = append(errs, errors.New("rbac: policy: empty tenant name"))
			continue
		}
		types, err := compileTenant(doc.Tenants[tenant], byName)
		if err != nil {
			errs = append(errs, fmt.Errorf("rbac: policy: tenant %q: %w", tenant, err))
		}
		p.tenants[tenant] = types
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return p, nil
}

func compileTenant(td TenantDoc, tables map[string]*Table) (map[*Table]map[string]*masks, error) {
	out := map[*Table]map[string]*masks{}
	var errs []error
	for _, name := range sortedKeys(td.Types) {
		t, ok := tables[name]
		if !ok {
			errs = append(errs, fmt.Errorf("unknown type %q (known: %v)", name, sortedKeys(tables)))
			continue
		}
		roles := map[string]*masks{}
		for _, role := range sortedKeys(td.Types[name]) {
			if msg := checkRole(role); msg != "" {
				errs = append(errs, fmt.Errorf("%s: %s", name, msg))
				continue
			}
			g := td.Types[name][role]
			m, err := t.compileGrant(g.Read, g.Write)
			if err != nil {
				errs = append(errs, fmt.Errorf("role %q: %w", role, err))
				continue
			}
			roles[role] = m
		}
		out[t] = roles
	}
	return out, errors.Join(errs...)
}

// Doc returns the policy's document.
func (p *Policy) Doc() PolicyDoc {
	if p == nil {
		return PolicyDoc{}
	}
	return p.doc
}

// MarshalJSON writes the policy's document.
func (p *Policy) MarshalJSON() ([]byte, error) { return json.Marshal(p.Doc()) }

// overrides returns a tenant's overrides of a type, and whether the tenant
// may use the type at all.
func (p *Policy) overrides(tenant string, t *Table) (map[string]*masks, bool) {
	if p == nil {
		return nil, true
	}
	types, listed := p.tenants[tenant]
	if !listed {
		return nil, !p.listedOnly
	}
	return types[t], true
}

// compile computes a subject's masks on a type: the union over its roles of
// the tenant's override for the role, else the tags' rights of the role. A
// role neither names grants nothing. The tenant key is always writable:
// tenancy, checked before, pins its value.
func compile(t *Table, over map[string]*masks, roles []string) *masks {
	m := newMasks(len(t.fields))
	for _, r := range roles {
		if o, ok := over[r]; ok {
			m.or(o)
		} else if s, ok := t.static[r]; ok {
			m.or(s)
		}
	}
	m.tenantWritable = m.write.Has(t.tenant)
	m.write.set(t.tenant)
	return m
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
