package rbac

import (
	"hash/maphash"
	"slices"
	"sync"
	"sync/atomic"
)

// Store holds the current policy and the masks compiled under it. It is
// safe for concurrent use; Swap replaces the policy atomically.
type Store struct {
	cur atomic.Pointer[snapshot]
}

// MaxCachedMasks bounds the masks cached per policy; beyond it masks are
// compiled on every call (correct, but slower and allocating).
const MaxCachedMasks = 1 << 16

// snapshot is one policy with its cache; a swap starts a new snapshot, so a
// mask compiled under an old policy is never used under a new one.
type snapshot struct {
	policy *Policy
	cache  sync.Map // cacheKey -> *entry
	size   atomic.Int64
	mu     sync.Mutex
}

// entry is a cached compilation for a (table, tenant, role set); entries
// whose keys share a hash are chained.
type entry struct {
	snap   *snapshot
	table  *Table
	tenant string
	roles  []string // distinct, sorted
	m      *masks
	next   *entry
}

// matches reports whether the entry was compiled for this subject and table
// under this snapshot.
func (e *entry) matches(sn *snapshot, t *Table, s *Subject) bool {
	return e.snap == sn && e.table == t && e.tenant == s.Tenant && sameRoles(e.roles, s.Roles)
}

// NewStore returns a store with a policy; nil means the tags' defaults for
// every tenant.
func NewStore(p *Policy) *Store {
	s := &Store{}
	s.cur.Store(&snapshot{policy: p})
	return s
}

// Swap installs a new policy (nil for the tags' defaults) and returns the
// old one.
func (s *Store) Swap(p *Policy) *Policy {
	return s.cur.Swap(&snapshot{policy: p}).policy
}

// Policy returns the current policy.
func (s *Store) Policy() *Policy {
	if s == nil || s.cur.Load() == nil {
		return nil
	}
	return s.cur.Load().policy
}

var seed = maphash.MakeSeed()

// cacheKey hashes a table, a tenant and a role set into the cache's key.
func cacheKey(t *Table, s *Subject) uint64 {
	return t.id*0x9e3779b97f4a7c15 ^ maphash.String(seed, s.Tenant) ^ roleHash(s.Roles)*0xbf58476d1ce4e5b9
}

// roleHash hashes the distinct roles, in any order.
func roleHash(roles []string) uint64 {
	var h uint64
	for i, r := range roles {
		if !slices.Contains(roles[:i], r) {
			h += maphash.String(seed, r) | 1
		}
	}
	return h
}

// sameRoles reports whether roles holds exactly the distinct sorted set.
// Subjects usually carry their roles sorted and once: that case is a plain
// comparison.
func sameRoles(set, roles []string) bool {
	if len(set) == len(roles) {
		same := true
		for i := range set {
			if set[i] != roles[i] {
				same = false
				break
			}
		}
		if same {
			return true
		}
	}
	n := 0
	for i, r := range roles {
		if !slices.Contains(set, r) {
			return false
		}
		if !slices.Contains(roles[:i], r) {
			n++
		}
	}
	return n == len(set)
}

// masks returns the subject's compiled masks on a table, or the tenancy
// error that denies it the table.
func (sn *snapshot) masks(t *Table, s *Subject) (*entry, error) {
	if t.err != nil {
		return nil, t.err
	}
	if s.Tenant == "" {
		return nil, noTenant(t.name)
	}
	key := cacheKey(t, s)
	if v, ok := sn.cache.Load(key); ok {
		for e := v.(*entry); e != nil; e = e.next {
			if e.matches(sn, t, s) {
				return e, nil
			}
		}
	}
	return sn.compile(key, t, s)
}

func (sn *snapshot) compile(key uint64, t *Table, s *Subject) (*entry, error) {
	over, ok := sn.policy.overrides(s.Tenant, t)
	if !ok {
		return nil, unlistedTenant(t.name, s.Tenant)
	}
	roles := slices.Clone(s.Roles)
	slices.Sort(roles)
	roles = slices.Compact(roles)
	e := &entry{snap: sn, table: t, tenant: s.Tenant, roles: roles, m: compile(t, over, roles)}
	if sn.size.Load() >= MaxCachedMasks {
		return e, nil
	}
	sn.mu.Lock()
	defer sn.mu.Unlock()
	if v, ok := sn.cache.Load(key); ok {
		e.next = v.(*entry)
		for c := e.next; c != nil; c = c.next {
			if c.matches(sn, t, s) {
				return c, nil
			}
		}
	}
	sn.cache.Store(key, e)
	sn.size.Add(1)
	return e, nil
}
