package rbac

// The helpers below are called by generated compare and restore functions
// for the containers of a type: a pointer to a struct, a list (slice or
// array) or a map of structs or of pointers to structs. row is the
// container's own row; its struct's rows start at row+1. nil, a missing
// element and a missing key all stand for the zero struct.

// DiffPtr compares the structs behind two pointers. nil versus non-nil is a
// change of the pointer itself.
func DiffPtr[E any](m Mask, row int, old, cur *E, d *Diff, diff func(Mask, int, *E, *E, *Diff)) {
	if (old == nil) != (cur == nil) && !m.Has(row) {
		d.Deny(row)
		return
	}
	diff(m, row+1, orZero(old), orZero(cur), d)
}

// DiffSlice compares two lists element by element; a different length is a
// change of the list itself.
func DiffSlice[S ~[]E, E any](m Mask, row int, old, cur S, d *Diff, diff func(Mask, int, *E, *E, *Diff)) {
	if len(old) != len(cur) && !m.Has(row) {
		d.Deny(row)
		return
	}
	for i := range max(len(old), len(cur)) {
		d.Push(i)
		diff(m, row+1, at(old, i), at(cur, i), d)
		d.Pop()
	}
}

// DiffPtrSlice is DiffSlice for lists of pointers; an element that turns
// from nil to a struct or back is a change of the list too.
func DiffPtrSlice[S ~[]*E, E any](m Mask, row int, old, cur S, d *Diff, diff func(Mask, int, *E, *E, *Diff)) {
	if len(old) != len(cur) && !m.Has(row) {
		d.Deny(row)
		return
	}
	for i := range max(len(old), len(cur)) {
		d.Push(i)
		if (atOrNil(old, i) == nil) != (atOrNil(cur, i) == nil) && i < min(len(old), len(cur)) && !m.Has(row) {
			// null and {} are different JSON: a change of the list itself
			d.Deny(row)
		}
		diff(m, row+1, atPtr(old, i), atPtr(cur, i), d)
		d.Pop()
	}
}

// DiffMap compares two maps key by key; a different key set is a change of
// the map itself.
func DiffMap[M ~map[K]E, K comparable, E any](m Mask, row int, old, cur M, d *Diff, diff func(Mask, int, *E, *E, *Diff)) {
	if !SameKeys(old, cur) && !m.Has(row) {
		d.Deny(row)
		return
	}
	each(old, cur, func(k K) {
		o, c := old[k], cur[k]
		PushKey(d, k)
		diff(m, row+1, &o, &c, d)
		d.Pop()
	})
}

// DiffPtrMap is DiffMap for maps of pointers; a value that turns from nil
// to a struct or back is a change of the map too.
func DiffPtrMap[M ~map[K]*E, K comparable, E any](m Mask, row int, old, cur M, d *Diff, diff func(Mask, int, *E, *E, *Diff)) {
	if !SameKeys(old, cur) && !m.Has(row) {
		d.Deny(row)
		return
	}
	each(old, cur, func(k K) {
		PushKey(d, k)
		o, inOld := old[k]
		c, inCur := cur[k]
		if inOld && inCur && (o == nil) != (c == nil) && !m.Has(row) {
			// null and {} are different JSON: a change of the map itself
			d.Deny(row)
		}
		diff(m, row+1, orZero(o), orZero(c), d)
		d.Pop()
	})
}

// RestorePtr restores the fields outside m of the struct behind *cur. When
// the subject removed a struct holding fields it may not write, the struct
// comes back with those fields.
func RestorePtr[E any](m Mask, base int, old *E, cur **E, restore func(Mask, int, *E, *E), diff func(Mask, int, *E, *E, *Diff)) {
	switch {
	case *cur != nil:
		restore(m, base, orZero(old), *cur)
	case old != nil && forbidden(m, base, old, diff):
		*cur = new(E)
		restore(m, base, old, *cur)
	}
}

// RestoreSlice restores the fields outside m of every element of *cur (an
// added element against the zero value). Removed elements holding fields
// the subject may not write come back, with those fields only.
func RestoreSlice[S ~[]E, E any](m Mask, base int, old S, cur *S, restore func(Mask, int, *E, *E), diff func(Mask, int, *E, *E, *Diff)) {
	s := *cur
	for i := range s {
		restore(m, base, at(old, i), &s[i])
	}
	if !anyForbidden(m, base, old[min(len(s), len(old)):], diff) {
		return
	}
	for i := len(s); i < len(old); i++ {
		var e E
		restore(m, base, &old[i], &e)
		s = append(s, e)
	}
	*cur = s
}

// RestorePtrSlice is RestoreSlice for lists of pointers.
func RestorePtrSlice[S ~[]*E, E any](m Mask, base int, old S, cur *S, restore func(Mask, int, *E, *E), diff func(Mask, int, *E, *E, *Diff)) {
	s := *cur
	for i := range s {
		RestorePtr(m, base, atOrNil(old, i), &s[i], restore, diff)
	}
	keep := false
	for _, o := range old[min(len(s), len(old)):] {
		keep = keep || o != nil && forbidden(m, base, o, diff)
	}
	if !keep {
		return
	}
	for i := len(s); i < len(old); i++ {
		var e *E
		RestorePtr(m, base, old[i], &e, restore, diff)
		s = append(s, e)
	}
	*cur = s
}

// RestoreArray restores the fields outside m of every element of an array.
func RestoreArray[E any](m Mask, base int, old, cur []E, restore func(Mask, int, *E, *E)) {
	for i := range cur {
		restore(m, base, &old[i], &cur[i])
	}
}

// RestoreMap restores the fields outside m of every value of *cur (an added
// key against the zero value). Removed keys whose values hold fields the
// subject may not write come back, with those fields only.
func RestoreMap[M ~map[K]E, K comparable, E any](m Mask, base int, old M, cur *M, restore func(Mask, int, *E, *E), diff func(Mask, int, *E, *E, *Diff)) {
	c := *cur
	for k, e := range c {
		o := old[k]
		restore(m, base, &o, &e)
		c[k] = e
	}
	for k, o := range old {
		if _, ok := c[k]; ok || !forbidden(m, base, &o, diff) {
			continue
		}
		if c == nil {
			c = M{}
			*cur = c
		}
		var e E
		restore(m, base, &o, &e)
		c[k] = e
	}
}

// RestorePtrMap is RestoreMap for maps of pointers.
func RestorePtrMap[M ~map[K]*E, K comparable, E any](m Mask, base int, old M, cur *M, restore func(Mask, int, *E, *E), diff func(Mask, int, *E, *E, *Diff)) {
	c := *cur
	for k, e := range c {
		RestorePtr(m, base, old[k], &e, restore, diff)
		c[k] = e
	}
	for k, o := range old {
		if _, ok := c[k]; ok || o == nil || !forbidden(m, base, o, diff) {
			continue
		}
		if c == nil {
			c = M{}
			*cur = c
		}
		var e *E
		RestorePtr(m, base, o, &e, restore, diff)
		c[k] = e
	}
}

// forbidden reports whether old holds a field outside m that is not zero:
// removing it would change a field the subject may not write.
func forbidden[E any](m Mask, base int, old *E, diff func(Mask, int, *E, *E, *Diff)) bool {
	var d Diff
	diff(m, base, old, new(E), &d)
	return d.Denied()
}

func anyForbidden[E any](m Mask, base int, old []E, diff func(Mask, int, *E, *E, *Diff)) bool {
	for i := range old {
		if forbidden(m, base, &old[i], diff) {
			return true
		}
	}
	return false
}

func orZero[E any](p *E) *E {
	if p == nil {
		return new(E)
	}
	return p
}

func at[E any](s []E, i int) *E {
	if i < len(s) {
		return &s[i]
	}
	return new(E)
}

func atPtr[E any](s []*E, i int) *E {
	if i < len(s) {
		return orZero(s[i])
	}
	return new(E)
}

func atOrNil[E any](s []*E, i int) *E {
	if i < len(s) {
		return s[i]
	}
	return nil
}

// each calls f for every key of a and of b, once.
func each[M ~map[K]E, K comparable, E any](a, b M, f func(K)) {
	for k := range a {
		f(k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			f(k)
		}
	}
}
