package rbac

// Funcs are the generated functions of a type. Each takes the mask of the
// whole table and the row where the type's own rows begin (0 for the table's
// type; containers call the functions of the types they hold with their
// rows' offset).
type Funcs[T any] struct {
	// Prune zeroes every field of v outside m.
	Prune func(m Mask, base int, v *T)
	// Diff reports to d every field outside m that differs between old and cur.
	Diff func(m Mask, base int, old, cur *T, d *Diff)
	// Restore copies into cur, from old, every field outside m.
	Restore func(m Mask, base int, old, cur *T)
	// Tenant returns the tenant key of v ("" when a pointer on the way is nil).
	Tenant func(v *T) string
}

// Type is a generated type: its table and functions.
type Type[T any] struct {
	table *Table
	fn    Funcs[T]
}

// NewType binds a table to its generated functions.
func NewType[T any](t *Table, fn Funcs[T]) *Type[T] {
	return &Type[T]{table: t, fn: fn}
}

// Table returns the type's field table.
func (t *Type[T]) Table() *Table {
	if t == nil {
		return nil
	}
	return t.table
}

// TenantOf returns the tenant key of v ("" when v or a pointer on the way
// is nil).
func (t *Type[T]) TenantOf(v *T) string {
	if t == nil || v == nil || t.fn.Tenant == nil {
		return ""
	}
	return t.fn.Tenant(v)
}
