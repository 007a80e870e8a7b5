package rbac_test

import (
	"errors"
	"math/rand"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/quick"

	"github.com/modelgen/modelgen/rbac"
	"github.com/modelgen/modelgen/rbac/internal/testtypes"
)

// The property tests draw policies, subjects and objects at random, with
// fixed seeds, and check the generated code against the reflection-based
// oracle of oracle_test.go.

const iterations = 300

var (
	allRoles   = []string{"admin", "editor", "viewer", "auditor", "clerk", "ghost"}
	allTenants = []string{"t1", "t2", "t3"}
)

// randomPolicy overrides some roles of tenants t1 and t2 with random paths;
// "clerk" exists only in policies, "ghost" nowhere.
func randomPolicy(rnd *rand.Rand, t *rbac.Table) rbac.PolicyDoc {
	doc := rbac.PolicyDoc{Tenants: map[string]rbac.TenantDoc{}}
	for _, tenant := range allTenants[:2] {
		roles := map[string]rbac.Grant{}
		for _, role := range allRoles[:5] {
			if rnd.Intn(2) == 0 {
				roles[role] = rbac.Grant{Read: randomPaths(rnd, t), Write: randomPaths(rnd, t)}
			}
		}
		doc.Tenants[tenant] = rbac.TenantDoc{Types: map[string]map[string]rbac.Grant{t.Name(): roles}}
	}
	return doc
}

func randomPaths(rnd *rand.Rand, t *rbac.Table) []string {
	if rnd.Intn(10) == 0 {
		return []string{"*"}
	}
	var out []string
	for _, f := range t.Fields() {
		if rnd.Intn(5) == 0 {
			out = append(out, f.Path)
		}
	}
	return out
}

func randomSubject(rnd *rand.Rand) rbac.Subject {
	s := rbac.Subject{Tenant: allTenants[rnd.Intn(len(allTenants))]}
	for _, r := range allRoles {
		if rnd.Intn(3) == 0 {
			s.Roles = append(s.Roles, r)
		}
	}
	if rnd.Intn(5) == 0 && len(s.Roles) > 0 {
		s.Roles = append(s.Roles, s.Roles[0]) // duplicates are harmless
	}
	return s
}

// randomDoc draws a Doc from a seed; the same seed gives an equal Doc, which
// is how the tests keep an untouched original.
func randomDoc(seed int64, tenant string) *testtypes.Doc {
	v, ok := quick.Value(reflect.TypeFor[testtypes.Doc](), rand.New(rand.NewSource(seed)))
	if !ok {
		panic("quick.Value")
	}
	d := v.Interface().(testtypes.Doc)
	d.Tenant = tenant
	return &d
}

type fixture struct {
	rnd    *rand.Rand
	table  *rbac.Table
	doc    rbac.PolicyDoc
	guard  *rbac.Guard[testtypes.Doc]
	policy *rbac.Policy
}

func newFixture(t *testing.T, rnd *rand.Rand) *fixture {
	table := testtypes.DocAccess.Table()
	doc := randomPolicy(rnd, table)
	p, err := rbac.NewPolicy(doc, table)
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{rnd: rnd, table: table, doc: doc, policy: p, guard: rbac.NewGuard(rbac.NewStore(p), testtypes.DocAccess)}
}

// TestFilterProperty: no field outside the subject's read set survives
// Filter, and every field inside it is untouched.
func TestFilterProperty(t *testing.T) {
	rnd := rand.New(rand.NewSource(1))
	for it := range iterations {
		fx := newFixture(t, rnd)
		subj := randomSubject(rnd)
		seed := rnd.Int63()
		orig, got := randomDoc(seed, subj.Tenant), randomDoc(seed, subj.Tenant)
		if err := fx.guard.Filter(subj, got); err != nil {
			t.Fatalf("#%d: Filter(%v): %v", it, subj, err)
		}
		read, _ := rights(fx.table, fx.doc, subj)
		checkFiltered(t, fx.table, read, reflect.ValueOf(orig).Elem(), reflect.ValueOf(got).Elem(), "", "")
		if t.Failed() {
			t.Fatalf("#%d: subject %v, policy %+v", it, subj, fx.doc)
		}
	}
}

func checkFiltered(t *testing.T, table *rbac.Table, read []bool, orig, got reflect.Value, tp, ip string) {
	t.Helper()
	rows := map[string]int{}
	for i, f := range table.Fields() {
		rows[f.Path] = i
	}
	for i := range orig.NumField() {
		sf := orig.Type().Field(i)
		seg, inline := segment(sf)
		path, inst := join(tp, seg), join(ip, seg)
		row := rows[path]
		o, g := orig.Field(i), got.Field(i)
		switch {
		case !read[row]:
			if !g.IsZero() {
				t.Errorf("%s (row %d) is not readable but survived: %v", inst, row, g)
			}
		case holdsStruct(sf.Type):
			ct, ci := path, inst
			if inline {
				ct, ci = tp, ip
			}
			checkContainer(t, table, read, o, g, ct, ci)
		case !reflect.DeepEqual(o.Interface(), g.Interface()):
			t.Errorf("%s is readable but changed: %v -> %v", inst, o, g)
		}
	}
}

func checkContainer(t *testing.T, table *rbac.Table, read []bool, o, g reflect.Value, tp, ip string) {
	t.Helper()
	switch o.Kind() {
	case reflect.Struct:
		checkFiltered(t, table, read, o, g, tp, ip)
	case reflect.Pointer:
		if o.IsNil() != g.IsNil() {
			t.Errorf("%s: presence changed", ip)
		} else if !o.IsNil() {
			checkFiltered(t, table, read, o.Elem(), g.Elem(), tp, ip)
		}
	case reflect.Slice, reflect.Array:
		if o.Len() != g.Len() {
			t.Errorf("%s: length changed", ip)
			return
		}
		for i := range o.Len() {
			checkContainer(t, table, read, o.Index(i), g.Index(i), tp+"[]", ip+"[i]")
		}
	case reflect.Map:
		if o.Len() != g.Len() {
			t.Errorf("%s: keys changed", ip)
			return
		}
		for _, k := range o.MapKeys() {
			checkContainer(t, table, read, o.MapIndex(k), g.MapIndex(k), tp+"{}", ip+"[k]")
		}
	}
}

// TestCrossTenantNeverPasses: an object of another tenant is denied for
// reads and writes, and a denied Filter leaves nothing behind.
func TestCrossTenantNeverPasses(t *testing.T) {
	rnd := rand.New(rand.NewSource(2))
	for it := range iterations {
		fx := newFixture(t, rnd)
		subj := randomSubject(rnd)
		other := allTenants[(slices.Index(allTenants, subj.Tenant)+1+rnd.Intn(2))%len(allTenants)]
		if rnd.Intn(4) == 0 {
			other = ""
		}
		foreign, own := randomDoc(rnd.Int63(), other), randomDoc(rnd.Int63(), subj.Tenant)

		err := fx.guard.Filter(subj, foreign)
		if te := (*rbac.TenantError)(nil); !errors.As(err, &te) || !reflect.ValueOf(*foreign).IsZero() {
			t.Fatalf("#%d: Filter of a %q object by %v: err %v, zeroed %v", it, other, subj, err, reflect.ValueOf(*foreign).IsZero())
		}
		list := []testtypes.Doc{*randomDoc(rnd.Int63(), subj.Tenant), *randomDoc(rnd.Int63(), other)}
		if err := fx.guard.FilterList(subj, list); !errors.Is(err, rbac.ErrDenied) || !reflect.ValueOf(list[0]).IsZero() {
			t.Fatalf("#%d: FilterList with a foreign element: %v", it, err)
		}
		foreign = randomDoc(rnd.Int63(), other)
		for _, pair := range [][2]*testtypes.Doc{{foreign, own}, {own, foreign}, {nil, foreign}} {
			var te *rbac.TenantError
			if err := fx.guard.CheckWrite(subj, pair[0], pair[1]); !errors.As(err, &te) {
				t.Fatalf("#%d: CheckWrite across tenants: %v", it, err)
			}
			if _, err := fx.guard.StripWrite(subj, pair[0], pair[1]); !errors.As(err, &te) {
				t.Fatalf("#%d: StripWrite across tenants: %v", it, err)
			}
		}
	}
}

// TestWithoutTenantOrRoleNothing: a subject without a tenant is denied; one
// whose roles the policy does not know sees nothing and changes nothing.
func TestWithoutTenantOrRoleNothing(t *testing.T) {
	rnd := rand.New(rand.NewSource(3))
	for it := range iterations {
		fx := newFixture(t, rnd)
		obj := randomDoc(rnd.Int63(), "")
		var te *rbac.TenantError
		if err := fx.guard.Filter(rbac.Subject{Roles: []string{"admin"}}, obj); !errors.As(err, &te) || !reflect.ValueOf(*obj).IsZero() {
			t.Fatalf("#%d: a subject without tenant: %v", it, err)
		}
		subj := rbac.Subject{Tenant: allTenants[rnd.Intn(3)], Roles: []string{"ghost", "nobody"}[:1+rnd.Intn(2)]}
		if rnd.Intn(3) == 0 {
			subj.Roles = nil
		}
		obj = randomDoc(rnd.Int63(), subj.Tenant)
		if err := fx.guard.Filter(subj, obj); err != nil || !reflect.ValueOf(*obj).IsZero() {
			t.Fatalf("#%d: unknown roles %v: err %v, saw %+v", it, subj.Roles, err, *obj)
		}
		old, cur := randomDoc(rnd.Int63(), subj.Tenant), randomDoc(rnd.Int63(), subj.Tenant)
		var we *rbac.WriteError
		if err := fx.guard.CheckWrite(subj, old, cur); !errors.As(err, &we) {
			t.Fatalf("#%d: unknown roles changed a whole object: %v", it, err)
		}
		if _, err := fx.guard.StripWrite(subj, old, cur); err != nil {
			t.Fatalf("#%d: StripWrite: %v", it, err)
		}
		if !reflect.DeepEqual(old, cur) {
			t.Fatalf("#%d: unknown roles: StripWrite kept a change", it)
		}
	}
}

// TestForbiddenWriteAlwaysRejected changes one field (or the length, keys
// or presence of a container) at random and checks that CheckWrite rejects
// it exactly when the subject may not write it, naming its path, and that
// StripWrite undoes exactly the forbidden changes.
func TestForbiddenWriteAlwaysRejected(t *testing.T) {
	rnd := rand.New(rand.NewSource(4))
	rejected, accepted := 0, 0
	for it := range iterations * 3 {
		fx := newFixture(t, rnd)
		subj := randomSubject(rnd)
		seed := rnd.Int63()
		old, cur := randomDoc(seed, subj.Tenant), randomDoc(seed, subj.Tenant)
		_, write := rights(fx.table, fx.doc, subj)
		paths, ok := mutate(rnd, fx.table, write, cur)
		if !ok {
			continue
		}
		err := fx.guard.CheckWrite(subj, old, cur)
		if len(paths) == 0 {
			accepted++
			if err != nil {
				t.Fatalf("#%d: an allowed change was rejected (%v, write rows %v): %v", it, subj, rowsOf(fx.table, write), err)
			}
			continue
		}
		rejected++
		var we *rbac.WriteError
		if !errors.As(err, &we) {
			t.Fatalf("#%d: a forbidden change to %v by %v passed: %v", it, paths, subj, err)
		}
		for _, p := range paths {
			if !slices.Contains(we.Paths, p) {
				t.Fatalf("#%d: the error %v does not name %s", it, we.Paths, p)
			}
		}
		if _, err := fx.guard.StripWrite(subj, old, cur); err != nil {
			t.Fatalf("#%d: StripWrite: %v", it, err)
		}
		if err := fx.guard.CheckWrite(subj, old, cur); err != nil {
			t.Fatalf("#%d: after StripWrite: %v", it, err)
		}
	}
	if rejected < 100 || accepted < 100 {
		t.Fatalf("too few cases: %d rejected, %d accepted", rejected, accepted)
	}
}

// mutate makes one change to d and returns the instance paths the subject
// may not change among those it touched (none when the change is allowed).
func mutate(rnd *rand.Rand, table *rbac.Table, write []bool, d *testtypes.Doc) ([]string, bool) {
	type change struct {
		row       int
		path      string
		container bool
		f         field
	}
	var changes []change
	w := newWalker(table, func(f field, container bool) bool {
		if f.row != table.Tenant() {
			changes = append(changes, change{f.row, f.path, container, f})
		}
		return true
	})
	w.walk(reflect.ValueOf(d).Elem(), "", "", nil)
	c := changes[rnd.Intn(len(changes))]
	if !c.container {
		nv := different(rnd, c.f.v)
		setField(c.f, nv)
		if !write[c.row] {
			return []string{c.path}, true
		}
		return nil, true
	}
	return mutateContainer(rnd, table, write, c.f, c.path)
}

func setField(f field, nv reflect.Value) {
	if f.v.CanSet() {
		f.v.Set(nv)
	} else {
		f.set(nv)
	}
}

// different draws a value of v's type that the generated code sees as a change.
func different(rnd *rand.Rand, v reflect.Value) reflect.Value {
	for {
		nv, _ := quick.Value(v.Type(), rnd)
		if !emptyEqual(v, nv) {
			return nv
		}
	}
}

// mutateContainer adds a zero element, removes the last one, or flips the
// presence of a pointer, or of a pointer element of a list or map (null
// and {} are different JSON). Removing an element (or a pointer's struct) changes
// its non-zero fields: those the subject may not write are forbidden.
func mutateContainer(rnd *rand.Rand, table *rbac.Table, write []bool, f field, path string) ([]string, bool) {
	v := f.v
	var removed reflect.Value
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			setField(f, reflect.New(v.Type().Elem()))
		} else {
			removed = v.Elem()
			setField(f, reflect.Zero(v.Type()))
		}
	case reflect.Slice:
		if v.Len() > 0 && v.Type().Elem().Kind() == reflect.Pointer && rnd.Intn(3) == 0 {
			// flip an element between null and {}
			i := rnd.Intn(v.Len())
			path += "[" + strconv.Itoa(i) + "]"
			s := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
			reflect.Copy(s, v)
			if e := s.Index(i); e.IsNil() {
				e.Set(reflect.New(v.Type().Elem().Elem()))
			} else {
				removed = e.Elem()
				e.Set(reflect.Zero(e.Type()))
			}
			setField(f, s)
		} else if v.Len() > 0 && rnd.Intn(2) == 0 {
			removed = v.Index(v.Len() - 1)
			path += "[" + strconv.Itoa(v.Len()-1) + "]"
			setField(f, v.Slice(0, v.Len()-1))
		} else {
			setField(f, reflect.Append(v, reflect.Zero(v.Type().Elem())))
		}
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		keys := v.MapKeys()
		for _, k := range keys {
			m.SetMapIndex(k, v.MapIndex(k))
		}
		if len(keys) > 0 && v.Type().Elem().Kind() == reflect.Pointer && rnd.Intn(3) == 0 {
			// flip a value between null and {}
			slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
			k := keys[rnd.Intn(len(keys))]
			path += "[" + strconv.Quote(k.String()) + "]"
			if e := v.MapIndex(k); e.IsNil() {
				m.SetMapIndex(k, reflect.New(v.Type().Elem().Elem()))
			} else {
				removed = e.Elem()
				m.SetMapIndex(k, reflect.Zero(e.Type()))
			}
		} else {
			m.SetMapIndex(reflect.ValueOf("added-key"), reflect.Zero(v.Type().Elem()))
		}
		setField(f, m)
	default:
		return nil, false // structs and arrays keep their shape
	}
	if !write[f.row] {
		return []string{f.path}, true
	}
	if !removed.IsValid() {
		return nil, true
	}
	return forbiddenIn(table, write, removed, f, path), true
}

// forbiddenIn lists the non-zero fields of a removed struct that the
// subject may not write.
func forbiddenIn(table *rbac.Table, write []bool, removed reflect.Value, f field, inst string) []string {
	if removed.Kind() == reflect.Pointer {
		if removed.IsNil() {
			return nil
		}
		removed = removed.Elem()
	}
	tp := table.Fields()[f.row].Path
	switch f.v.Kind() {
	case reflect.Slice:
		tp += "[]"
	case reflect.Map:
		tp += "{}"
	}
	var out []string
	w := newWalker(table, func(g field, container bool) bool {
		if !container && !write[g.row] && !g.v.IsZero() {
			out = append(out, g.path)
		}
		return true
	})
	w.walk(removed, tp, inst, nil)
	return out
}

func rowsOf(t *rbac.Table, set []bool) []string {
	var out []string
	for i, f := range t.Fields() {
		if set[i] {
			out = append(out, f.Path)
		}
	}
	return out
}
