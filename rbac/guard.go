package rbac

import (
	"slices"
	"sort"
	"sync/atomic"
)

// Guard applies a store's policy to one generated type.
type Guard[T any] struct {
	store *Store
	typ   *Type[T]
	// last is the entry of the last subject served: requests filter many
	// objects for one subject, and this skips the cache's hashing.
	last atomic.Pointer[entry]
}

// NewGuard binds a generated type to a store.
func NewGuard[T any](s *Store, t *Type[T]) *Guard[T] {
	return &Guard[T]{store: s, typ: t}
}

// Filter zeroes, in place, every field of v that s may not read. It denies
// (and zeroes all of *v) when s has no tenant or v belongs to another tenant.
func (g *Guard[T]) Filter(s Subject, v *T) error {
	if err := g.usable("Filter", v, true); err != nil {
		if v != nil {
			var zero T
			*v = zero
		}
		return err
	}
	m, err := g.readable(&s, v)
	if err != nil {
		var zero T
		*v = zero
		return err
	}
	g.typ.fn.Prune(m.read, 0, v)
	return nil
}

// FilterList filters every element of vs. When one element is denied, every
// element is zeroed and the first denial is returned.
func (g *Guard[T]) FilterList(s Subject, vs []T) error {
	if err := g.usable("FilterList", nil, false); err != nil {
		clear(vs)
		return err
	}
	m, err := g.masks(&s)
	for i := 0; err == nil && i < len(vs); i++ {
		err = g.tenancy(&s, &vs[i])
	}
	if err != nil {
		clear(vs)
		return err
	}
	for i := range vs {
		g.typ.fn.Prune(m.read, 0, &vs[i])
	}
	return nil
}

// CheckWrite returns a *WriteError listing every field that s changed from
// old to cur but may not write. old is nil for a create. Tenancy is checked
// on both objects.
func (g *Guard[T]) CheckWrite(s Subject, old, cur *T) error {
	if err := g.usable("CheckWrite", cur, true); err != nil {
		return err
	}
	m, old, err := g.writable(&s, old, cur)
	if err != nil {
		return err
	}
	d := &Diff{table: g.typ.table}
	g.typ.fn.Diff(m.write, 0, old, cur, d)
	return g.writeError(d)
}

// StripWrite undoes, in cur, every change s may not make: those fields are
// copied back from old (the zero value for a create). It returns the paths
// it restored, sorted. It denies when tenancy fails, before or after.
func (g *Guard[T]) StripWrite(s Subject, old, cur *T) ([]string, error) {
	if err := g.usable("StripWrite", cur, true); err != nil {
		return nil, err
	}
	m, old, err := g.writable(&s, old, cur)
	if err != nil {
		return nil, err
	}
	d := &Diff{table: g.typ.table}
	g.typ.fn.Diff(m.write, 0, old, cur, d)
	g.typ.fn.Restore(m.write, 0, old, cur)
	if err := g.tenancy(&s, cur); err != nil {
		return nil, err
	}
	return sorted(d.paths), nil
}

// Paths lists the table paths s may read and write (the tenant key counts
// as writable only when the roles grant it).
func (g *Guard[T]) Paths(s Subject) (read, write []string, err error) {
	if err := g.usable("Paths", nil, false); err != nil {
		return nil, nil, err
	}
	m, err := g.masks(&s)
	if err != nil {
		return nil, nil, err
	}
	t := g.typ.table
	write = t.paths(m.write)
	if !m.tenantWritable {
		write = slices.DeleteFunc(write, func(p string) bool { return p == t.fields[t.tenant].Path })
	}
	return t.paths(m.read), write, nil
}

// usable checks what a call needs before it touches anything: a guard with
// a store and a complete generated type, and, when needed, an object.
func (g *Guard[T]) usable(op string, v *T, needObject bool) error {
	switch {
	case g == nil:
		return &InvalidError{Op: op, Reason: "nil guard"}
	case g.store == nil || g.store.cur.Load() == nil:
		return &InvalidError{Op: op, Reason: "guard without a store (use NewStore)"}
	case g.typ == nil || g.typ.table == nil:
		return &InvalidError{Op: op, Reason: "guard without a generated type"}
	case g.typ.fn.Prune == nil || g.typ.fn.Diff == nil || g.typ.fn.Restore == nil || g.typ.fn.Tenant == nil:
		return &InvalidError{Op: op, Reason: "generated type " + g.typ.table.name + " lacks its functions"}
	case needObject && v == nil:
		return &InvalidError{Op: op, Reason: "nil object of " + g.typ.table.name}
	}
	return nil
}

// Type returns the generated type the guard applies to.
func (g *Guard[T]) Type() *Type[T] {
	if g == nil {
		return nil
	}
	return g.typ
}

// masks returns the subject's compiled masks under the current policy.
func (g *Guard[T]) masks(s *Subject) (*masks, error) {
	sn := g.store.cur.Load()
	if e := g.last.Load(); e != nil && e.matches(sn, g.typ.table, s) && s.Tenant != "" {
		return e.m, nil
	}
	e, err := sn.masks(g.typ.table, s)
	if err != nil {
		return nil, err
	}
	g.last.Store(e)
	return e.m, nil
}

func (g *Guard[T]) readable(s *Subject, v *T) (*masks, error) {
	m, err := g.masks(s)
	if err != nil {
		return nil, err
	}
	return m, g.tenancy(s, v)
}

func (g *Guard[T]) writable(s *Subject, old, cur *T) (*masks, *T, error) {
	m, err := g.masks(s)
	if err != nil {
		return nil, nil, err
	}
	if old == nil {
		old = new(T)
	} else if err := g.tenancy(s, old); err != nil {
		return nil, nil, err
	}
	return m, old, g.tenancy(s, cur)
}

func (g *Guard[T]) tenancy(s *Subject, v *T) error {
	if got := g.typ.fn.Tenant(v); got != s.Tenant {
		return otherTenant(g.typ.table.name, s.Tenant, got)
	}
	return nil
}

func (g *Guard[T]) writeError(d *Diff) error {
	if !d.Denied() {
		return nil
	}
	return &WriteError{Type: g.typ.table.name, Paths: sorted(d.paths)}
}

func sorted(paths []string) []string {
	sort.Strings(paths)
	return slices.Compact(paths)
}
