package testtypes_test

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"reflect"
	"slices"
	"strings"

	"testing"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission/plugin/policy/validating"

	"github.com/modelgen/modelgen/gen/policy"
	"github.com/modelgen/modelgen/gen/policy/evaluate"
	"github.com/modelgen/modelgen/model"
	"github.com/modelgen/modelgen/rbac"
	tt "github.com/modelgen/modelgen/rbac/internal/testtypes"
)

// The differential test: random old/new pairs of Record (Doc, with every
// access shape: an inlined embedded struct, a struct, a pointer, []T, []*T,
// map[K]T, map[K]*T, [n]T, leaves of many kinds; and ObjectMeta, whose
// labels and annotations change, bookkeeping keys among them), random
// subjects and tenant policies; the generated Go guard's CheckWrite and the
// generated ValidatingAdmissionPolicy, run by the API server's own
// validating admission policy evaluator, must agree on every pair.

const operator = "system:serviceaccount:sys:operator"

var (
	gvr = schema.GroupVersionResource{Group: "test.modelgen.io", Version: "v1", Resource: "records"}
	gvk = schema.GroupVersionKind{Group: "test.modelgen.io", Version: "v1", Kind: "Record"}
)

func settings() policy.Settings {
	s := policy.DefaultSettings()
	s.ServiceAccounts = []policy.ServiceAccount{{User: operator, Roles: []string{"editor"}}}
	s.BookkeepingAnnotations = bookkeepingAnnotations
	s.BookkeepingLabels = bookkeepingLabels
	return s
}

// The bookkeeping keys of the settings (a key ending in "/" or "*" is a
// prefix), and the keys the generator draws labels and annotations from:
// bookkeeping keys, keys only like them, and governed ones.
var (
	bookkeepingAnnotations = []string{"argocd.argoproj.io/"}
	bookkeepingLabels      = []string{"kustomize.toolkit.fluxcd.io/", "owner-tool", "run-*"}
	annotationKeys         = []string{policy.LastApplied, "argocd.argoproj.io/tracking-id", "argocd.argoproj.io", "note"}
	labelKeys              = []string{"team", "kustomize.toolkit.fluxcd.io/name", "owner-tool", "owner-tool2", "run-id"}
)

// bookkeeping holds when key is among keys (exactly, or by a prefix).
func bookkeeping(key string, keys []string) bool {
	for _, k := range keys {
		switch {
		case strings.HasSuffix(k, "*") && strings.HasPrefix(key, strings.TrimSuffix(k, "*")),
			strings.HasSuffix(k, "/") && strings.HasPrefix(key, k),
			key == k:
			return true
		}
	}
	return false
}

// docPolicy generates the policy of Record from its source.
func docPolicy(t testing.TB) (*admissionv1.ValidatingAdmissionPolicy, *model.TypeAccess) {
	t.Helper()
	m, err := model.Load(model.Config{Patterns: []string{"."}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range m.Access.Sorted() {
		if tr.Type.Name != "Record" {
			continue
		}
		k := policy.KindOf(tr)
		k.Group, k.Version, k.Plural = gvr.Group, gvr.Version, gvr.Resource
		checks := policy.Checks(tr, settings())
		p, _ := policy.Build(k, checks, settings())
		if errs := policy.CompileErrors(p, checks); len(errs) > 0 {
			t.Fatal(errs)
		}
		return p, tr
	}
	t.Fatal("no Record")
	return nil, nil
}

var (
	roles   = []string{"admin", "editor", "viewer", "auditor", "clerk", "ghost"}
	tenants = []string{"t1", "t2"}
	words   = []string{"", "a", "b"}
)

type gen struct{ r *rand.Rand }

func (g gen) word() string    { return words[g.r.Intn(len(words))] }
func (g gen) coin(n int) bool { return g.r.Intn(n) == 0 }

func (g gen) item() tt.Item {
	return tt.Item{SKU: g.word(), Price: float64(g.r.Intn(3)) / 2, Note: g.word()}
}

func (g gen) items() []tt.Item {
	if g.coin(4) {
		return nil
	}
	out := []tt.Item{}
	for range g.r.Intn(3) {
		out = append(out, g.item())
	}
	return out
}

func (g gen) doc(tenant string) tt.Doc {
	d := tt.Doc{Tenant: tenant, Title: g.word(), Secret: g.word(), Count: g.r.Intn(2), Kind: tt.Kind(g.word())}
	d.ID, d.Version = g.word(), int64(g.r.Intn(2))
	if !g.coin(2) {
		f := float64(g.r.Intn(2))
		d.Score = &f
	}
	if !g.coin(2) {
		d.Labels = map[string]string{}
		if !g.coin(2) {
			d.Labels[g.word()] = g.word()
		}
	}
	if !g.coin(2) {
		d.Tags = []string{}
		if !g.coin(2) {
			d.Tags = append(d.Tags, g.word())
		}
	}
	d.Owner = tt.Person{Name: g.word(), Email: g.word()}
	if !g.coin(2) {
		d.Reviewer = &tt.Person{Name: g.word(), Email: g.word()}
	}
	d.Items = g.items()
	for _, it := range g.items() {
		if g.coin(3) {
			d.Refs = append(d.Refs, nil)
		} else {
			d.Refs = append(d.Refs, &it)
		}
	}
	if !g.coin(3) {
		d.ByKey = map[string]tt.Item{}
		for range g.r.Intn(3) {
			d.ByKey[g.word()] = g.item()
		}
	}
	if !g.coin(3) {
		d.PtrByKey = map[string]*tt.Item{}
		for range g.r.Intn(3) {
			if g.coin(3) {
				d.PtrByKey[g.word()] = nil
			} else {
				it := g.item()
				d.PtrByKey[g.word()] = &it
			}
		}
	}
	d.Pair = [2]tt.Item{g.item(), g.item()}
	if !g.coin(3) {
		d.Notes = []string{}
		if g.coin(2) {
			d.Notes = append(d.Notes, g.word())
		}
	}
	d.Lines = g.items()
	return d
}

// meta draws labels and annotations (either may be absent).
func (g gen) meta() metav1.ObjectMeta {
	m := metav1.ObjectMeta{Name: "r", Namespace: "default"}
	draw := func(keys []string) map[string]string {
		if g.coin(3) {
			return nil
		}
		out := map[string]string{}
		for _, k := range keys {
			if g.coin(3) {
				out[k] = g.word()
			}
		}
		return out
	}
	m.Labels, m.Annotations = draw(labelKeys), draw(annotationKeys)
	return m
}

func (g gen) record(tenant string) tt.Record {
	return tt.Record{Metadata: g.meta(), Doc: g.doc(tenant)}
}

// metaChange sets or removes one or two labels or annotations of m, the
// last-applied annotation most often, as every kubectl apply does.
func (g gen) metaChange(m *metav1.ObjectMeta) {
	for range 1 + g.r.Intn(2) {
		kv, keys := &m.Annotations, annotationKeys
		if g.coin(2) {
			kv, keys = &m.Labels, labelKeys
		}
		k := keys[g.r.Intn(len(keys))]
		if g.coin(3) {
			kv, k = &m.Annotations, policy.LastApplied
		}
		if *kv == nil {
			*kv = map[string]string{}
		}
		if _, ok := (*kv)[k]; ok && g.coin(3) {
			delete(*kv, k)
		} else {
			(*kv)[k] = "v" + g.word()
		}
	}
}

// mutateRecord changes a copy of r: a few fields of its Doc, and half of
// the time its metadata.
func (g gen) mutateRecord(r tt.Record) tt.Record {
	var out tt.Record
	mustRound(r, &out)
	out.Doc = g.mutate(r.Doc)
	if g.coin(2) {
		g.metaChange(&out.Metadata)
	}
	return out
}

// mutate changes a few fields of a copy of d (through JSON, a deep copy),
// taking them from another random Doc.
func (g gen) mutate(d tt.Doc) tt.Doc {
	var a, b map[string]any
	mustRound(d, &a)
	mustRound(g.doc(d.Tenant), &b)
	keys := make([]string, 0, len(b))
	for k := range b {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for range 1 + g.r.Intn(2) {
		k := keys[g.r.Intn(len(keys))]
		if v, ok := b[k]; ok {
			a[k] = v
		}
	}
	if g.coin(10) {
		a["tenant"] = tenants[g.r.Intn(len(tenants))]
	}
	var out tt.Doc
	mustRound(a, &out)
	if g.coin(2) {
		g.nested(&out)
	}
	return out
}

// nested changes one field inside a container: an element's field, a
// pointer element turned null, a key added or removed.
func (g gen) nested(d *tt.Doc) {
	price := float64(g.r.Intn(3)) + 0.25
	switch g.r.Intn(13) {
	case 0:
		if len(d.Refs) > 0 && d.Refs[0] != nil {
			d.Refs[0].Price = price
		} else {
			d.Refs = append(d.Refs, &tt.Item{Price: price})
		}
	case 1:
		if len(d.Refs) > 0 {
			d.Refs[0] = nil
		}
	case 2:
		if d.PtrByKey == nil {
			d.PtrByKey = map[string]*tt.Item{}
		}
		d.PtrByKey["k"+g.word()] = &tt.Item{SKU: g.word()}
	case 3:
		for k, v := range d.PtrByKey {
			if v != nil {
				v.Price = price
			} else {
				delete(d.PtrByKey, k)
			}
			break
		}
	case 4:
		if len(d.Items) > 0 {
			d.Items[len(d.Items)-1].Note = "n" + g.word()
		}
	case 5:
		for k, v := range d.ByKey {
			v.SKU = "s" + g.word()
			d.ByKey[k] = v
			break
		}
	case 6:
		d.Pair[g.r.Intn(2)].Price = price
	case 7: // zero elements and keys: only the container's own rule sees them
		d.Items = append(d.Items, tt.Item{})
	case 8:
		d.Lines = append(d.Lines, tt.Item{})
	case 9:
		if d.ByKey == nil {
			d.ByKey = map[string]tt.Item{}
		}
		d.ByKey["z"] = tt.Item{}
	case 10:
		d.Refs = append(d.Refs, &tt.Item{})
	case 11: // a zero pointer element turned null, or back
		for i, e := range d.Refs {
			if e == nil {
				d.Refs[i] = &tt.Item{}
			} else if *e == (tt.Item{}) {
				d.Refs[i] = nil
			}
		}
	case 12: // the same number of keys, another key
		for k, v := range d.ByKey {
			delete(d.ByKey, k)
			d.ByKey[k+"2"] = v
			break
		}
	}
}

func mustRound(in, out any) {
	data, err := json.Marshal(in)
	if err != nil {
		panic(err)
	}
	if err := json.Unmarshal(data, out); err != nil {
		panic(err)
	}
}

// served is the object as the API server holds it: JSON, with the nulls
// of fields pruned (a field that is not nullable loses its null) and the
// schema default of every Item's note written where it is absent.
func served(d tt.Record) *unstructured.Unstructured {
	var m map[string]any
	mustRound(d, &m)
	pruneNulls(m)
	defaultNotes(m, nil)
	return &unstructured.Unstructured{Object: m}
}

// noteDefault is Item.Note's +kubebuilder:default.
const noteDefault = "n"

// defaultNotes writes noteDefault into every Item of m that lacks a note
// (old nil), or only into those at a place (index, key) where old holds an
// Item: what the caller wrote, as Go judges it, is the server's object
// without the defaults it put into Items the old object lacked.
func defaultNotes(m, old map[string]any) {
	fill := func(e any, had bool) {
		if it, ok := e.(map[string]any); ok && (old == nil || had) {
			if _, ok := it["note"]; !ok {
				it["note"] = noteDefault
			}
		}
	}
	for _, k := range []string{"items", "refs", "pair", "lines"} {
		l, _ := m[k].([]any)
		ol, _ := old[k].([]any)
		for i, e := range l {
			fill(e, i < len(ol) && ol[i] != nil)
		}
	}
	for _, k := range []string{"byKey", "ptrByKey"} {
		mm, _ := m[k].(map[string]any)
		om, _ := old[k].(map[string]any)
		for key, e := range mm {
			fill(e, om[key] != nil)
		}
	}
}

// written is cur as Go judges the caller's write against old: the server's
// object, without the defaults it put into Items old lacks (all of them on
// CREATE).
func written(cur tt.Record, old *tt.Record) map[string]any {
	var m map[string]any
	mustRound(cur, &m)
	pruneNulls(m)
	o := map[string]any{}
	if old != nil {
		o = served(*old).Object
	}
	defaultNotes(m, o)
	return m
}

func pruneNulls(v any) {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if e == nil {
				delete(x, k)
				continue
			}
			pruneNulls(e)
		}
	case []any:
		for _, e := range x {
			pruneNulls(e)
		}
	}
}

func (g gen) policyDoc(t *rbac.Table) rbac.PolicyDoc {
	doc := rbac.PolicyDoc{Tenants: map[string]rbac.TenantDoc{}, ListedTenantsOnly: g.coin(8)}
	for _, tenant := range tenants[:1] {
		grants := map[string]rbac.Grant{}
		for _, role := range roles[:5] {
			if !g.coin(3) {
				continue
			}
			var write []string
			if g.coin(8) {
				write = []string{"*"}
			}
			for _, f := range t.Fields() {
				if g.coin(6) {
					write = append(write, f.Path)
				}
			}
			grants[role] = rbac.Grant{Write: write}
		}
		doc.Tenants[tenant] = rbac.TenantDoc{Types: map[string]map[string]rbac.Grant{t.Name(): grants}}
	}
	return doc
}

func params(doc rbac.PolicyDoc) runtime.Object {
	var spec map[string]any
	mustRound(doc, &spec)
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "modelgen.io/v1alpha1", "kind": "AccessPolicy",
		"metadata": map[string]any{"name": policy.DefaultParamName}, "spec": spec,
	}}
}

// caller is one random subject, as Go sees it and as the API server does.
type caller struct {
	user evaluate.UserInfo
	// goSubject is nil when the subject is the operator: it acts for the
	// tenant of the object.
	subject *rbac.Subject
	roles   []string
	// scoped are the roles of tenant-scoped role groups, by tenant: the
	// caller acts for the object's tenant with its roles there when it has
	// some, else as subject
	scoped map[string][]string
}

func (g gen) caller() caller {
	var rs []string
	for _, r := range roles {
		if g.coin(3) {
			rs = append(rs, r)
		}
	}
	if g.coin(8) {
		return caller{user: evaluate.UserInfo{Name: operator, Groups: []string{"system:serviceaccounts"}}, roles: []string{"editor"}}
	}
	u := evaluate.UserInfo{Name: "alice", Groups: []string{"system:authenticated"}}
	for _, r := range rs {
		u.Groups = append(u.Groups, "modelgen:role:"+r)
	}
	s := &rbac.Subject{Roles: rs}
	switch n := g.r.Intn(12); {
	case n == 0: // no tenant
	case n == 1: // two tenants: ambiguous, none
		u.Groups = append(u.Groups, "modelgen:tenant:t1", "modelgen:tenant:t2")
	case n <= 3: // roles scoped to tenants, with or without a tenant of its own
		if n == 3 {
			s.Tenant = tenants[g.r.Intn(len(tenants))]
			u.Groups = append(u.Groups, "modelgen:tenant:"+s.Tenant)
		}
		scoped := map[string][]string{}
		for _, tn := range tenants {
			for _, r := range roles {
				if g.coin(2) {
					scoped[tn] = append(scoped[tn], r)
					u.Groups = append(u.Groups, "modelgen:tenant:"+tn+":role:"+r)
				}
			}
		}
		return caller{user: u, subject: s, roles: rs, scoped: scoped}
	default:
		s.Tenant = tenants[g.r.Intn(len(tenants))]
		u.Groups = append(u.Groups, "modelgen:tenant:"+s.Tenant)
	}
	return caller{user: u, subject: s, roles: rs}
}

type pair struct {
	old, cur *tt.Record // cur nil: a delete of old
	who      caller
	doc      rbac.PolicyDoc
}

func (p pair) String() string {
	o, _ := json.Marshal(p.old)
	c, _ := json.Marshal(p.cur) // null: a delete
	d, _ := json.Marshal(p.doc)
	return fmt.Sprintf("user %+v\nold %s\nnew %s\npolicy %s", p.who.user, o, c, d)
}

// goVerdict is CheckWrite on the objects as the server holds them (a
// field JSON skips does not reach it, nulls of fields are pruned), as a
// guard in the server's path would decode them, except for the defaults
// the server wrote into Items the old object lacked: those are not the
// caller's write (written), and except for the metadata, of which the
// policy judges what its writers own: labels and annotations, without the
// bookkeeping keys (governedMeta).
func goVerdict(p pair, tbl *rbac.Table) (bool, error) {
	return goVerdictAs(p, tbl, nil)
}

// groups reads the subject from the user's groups as the generated
// webhook's SubjectFor is told to (rbac.Groups), with the settings' service
// account.
var groups = rbac.Groups{RolePrefix: "modelgen:role:", TenantPrefix: "modelgen:tenant:", ServiceAccounts: map[string][]string{operator: {"editor"}}}

// goVerdictAs is goVerdict with the subject g reads from the user's groups
// for the object's tenant (the old object's when there is one), when g is
// not nil.
func goVerdictAs(p pair, tbl *rbac.Table, g *rbac.Groups) (bool, error) {
	pol, err := rbac.NewPolicy(p.doc, tbl)
	if err != nil {
		return false, err
	}
	guard := rbac.NewGuard(rbac.NewStore(pol), tt.RecordAccess)
	var cur tt.Record
	if p.cur == nil { // a delete writes no field: the tenant rules alone
		mustRound(served(*p.old).Object, &cur)
	} else {
		mustRound(written(*p.cur, p.old), &cur)
	}
	cur.Metadata = governedMeta(cur.Metadata)
	var old *tt.Record
	if p.old != nil {
		old = new(tt.Record)
		mustRound(served(*p.old).Object, old)
		old.Metadata = governedMeta(old.Metadata)
	}
	s := rbac.Subject{Roles: p.who.roles}
	tenant := cur.Tenant
	if old != nil {
		tenant = old.Tenant
	}
	if rs := p.who.scoped[tenant]; len(rs) > 0 {
		s = rbac.Subject{Tenant: tenant, Roles: rs}
		if p.who.subject != nil && p.who.subject.Tenant == tenant {
			s.Roles = append(slices.Clone(p.who.roles), rs...)
		}
	} else if p.who.subject != nil {
		s = *p.who.subject
	} else if old != nil {
		s.Tenant = old.Tenant
	} else {
		s.Tenant = cur.Tenant
	}
	if g != nil {
		obj := &cur
		if old != nil {
			obj = old
		}
		s = g.SubjectFor(p.who.user.Name, p.who.user.Groups, tt.RecordAccess.TenantOf(obj))
	}
	return guard.CheckWrite(s, old, &cur) == nil, nil
}

// governedMeta is the part of m a metadata write is judged on: the labels
// and annotations that are not bookkeeping (kubectl's last-applied
// annotation and the keys of the settings).
func governedMeta(m metav1.ObjectMeta) metav1.ObjectMeta {
	keep := func(kv map[string]string, keys []string) map[string]string {
		out := map[string]string{}
		for k, v := range kv {
			if !bookkeeping(k, keys) {
				out[k] = v
			}
		}
		return out
	}
	return metav1.ObjectMeta{
		Labels:      keep(m.Labels, bookkeepingLabels),
		Annotations: keep(m.Annotations, append([]string{policy.LastApplied}, bookkeepingAnnotations...)),
	}
}

// bookkeptOnly is cur with old's governed labels and annotations: only its
// bookkeeping keys differ from old.
func bookkeptOnly(old, cur tt.Record) tt.Record {
	var out tt.Record
	mustRound(cur, &out)
	merge := func(o, c map[string]string, keys []string) map[string]string {
		out := map[string]string{}
		for k, v := range o {
			if !bookkeeping(k, keys) {
				out[k] = v
			}
		}
		for k, v := range c {
			if bookkeeping(k, keys) {
				out[k] = v
			}
		}
		if len(out) == 0 && o == nil {
			return nil
		}
		return out
	}
	out.Metadata.Labels = merge(old.Metadata.Labels, cur.Metadata.Labels, bookkeepingLabels)
	out.Metadata.Annotations = merge(old.Metadata.Annotations, cur.Metadata.Annotations, append([]string{policy.LastApplied}, bookkeepingAnnotations...))
	return out
}

func serverVerdict(v validating.Validator, p pair) evaluate.Verdict {
	r := evaluate.Request{Resource: gvr, Kind: gvk, Namespace: "default", User: p.who.user, Params: params(p.doc)}
	if p.cur != nil {
		r.New = served(*p.cur)
	}
	if p.old != nil {
		r.Old = served(*p.old)
	}
	return evaluate.Evaluate(v, r)
}

func TestPolicyAgreesWithCheckWrite(t *testing.T) {
	p, _ := docPolicy(t)
	v, err := evaluate.NewEvaluator(p)
	if err != nil {
		t.Fatal(err)
	}
	tbl := tt.RecordAccess.Table()
	g := gen{rand.New(rand.NewSource(23))}
	n, allowed, diffs, deletes := 1500, 0, 0, 0
	bookkept, governed := 0, 0 // updates that change bookkeeping keys, governed labels or annotations
	if testing.Short() {
		n = 500
	}
	for i := range n {
		who := g.caller()
		tenant := tenants[g.r.Intn(len(tenants))]
		if who.subject != nil && who.subject.Tenant != "" && !g.coin(6) {
			tenant = who.subject.Tenant
		}
		old := g.record(tenant)
		cur := g.mutateRecord(old)
		pr := pair{old: &old, cur: &cur, who: who}
		if g.coin(5) {
			pr.old = nil
			cur = g.record(tenant)
			if g.coin(2) { // a create that sets few fields
				cur = tt.Record{Metadata: g.meta(), Doc: tt.Doc{Tenant: tenant, Title: g.word()}}
			}
			pr.cur = &cur
		} else if g.coin(6) {
			pr.cur = nil // a delete (one object of a deletecollection too)
			deletes++
		}
		if !g.coin(3) {
			pr.doc = g.policyDoc(tbl)
		}
		want, err := goVerdict(pr, tbl)
		if err != nil {
			t.Fatal(err)
		}
		got := serverVerdict(v, pr)
		// the subject the webhook reads from the groups for the object's
		// tenant gets the policy's verdict too
		if viaGroups, err := goVerdictAs(pr, tbl, &groups); err != nil || viaGroups != got.Allowed {
			diffs++
			t.Errorf("pair %d: CheckWrite as rbac.Groups.SubjectFor reads the caller allows=%v (%v), the policy allows=%v %v\n%s", i, viaGroups, err, got.Allowed, got.Messages, pr)
		}
		if want {
			allowed++
		}
		if got.Allowed != want {
			diffs++
			if diffs <= 5 {
				t.Errorf("pair %d: CheckWrite allows=%v, the policy allows=%v %v\n%s", i, want, got.Allowed, got.Messages, pr)
			}
		}
		if pr.old == nil || pr.cur == nil {
			continue
		}
		if !reflect.DeepEqual(governedMeta(old.Metadata), governedMeta(cur.Metadata)) {
			governed++
		}
		// bookkeeping keys are never refused on their own: the update with
		// only the bookkeeping part of cur's metadata gets the verdict of
		// the same update without any metadata change
		bk, same := bookkeptOnly(old, cur), cur
		same.Metadata = old.Metadata
		if reflect.DeepEqual(bk.Metadata, old.Metadata) {
			continue
		}
		bookkept++
		a, b := serverVerdict(v, pair{old: &old, cur: &bk, who: who, doc: pr.doc}), serverVerdict(v, pair{old: &old, cur: &same, who: who, doc: pr.doc})
		if a.Allowed != b.Allowed {
			diffs++
			t.Errorf("pair %d: changing bookkeeping keys only, the policy allows=%v, without them allows=%v %v\n%s", i, a.Allowed, b.Allowed, a.Messages, pair{old: &old, cur: &bk, who: who, doc: pr.doc})
		}
	}
	t.Logf("%d pairs (%d deletes, %d updates changing bookkeeping keys, %d governed metadata), %d allowed by both, %d differences", n, deletes, bookkept, governed, allowed, diffs)
	if bookkept < n/20 || governed < n/20 {
		t.Errorf("%d updates change bookkeeping keys, %d governed metadata: the generator does not exercise metadata", bookkept, governed)
	}
	if allowed < n/10 || allowed > n*9/10 {
		t.Errorf("%d of %d pairs allowed: the generator does not exercise both verdicts", allowed, n)
	}
}

// TestPolicyMutations drops one path from one generated expression, or a
// field's whole validation, and expects a change of that field by an
// editor (which the tags forbid it) to be admitted then: the agreement above
// is not an accident of expressions that never fire.
func TestPolicyMutations(t *testing.T) {
	base, tr := docPolicy(t)
	checks := policy.Checks(tr, settings())
	fields := len(base.Spec.Validations) - len(checks)
	old := tt.Record{Doc: tt.Doc{Tenant: "t1", Items: []tt.Item{{SKU: "a"}}, Refs: []*tt.Item{{SKU: "a"}}, ByKey: map[string]tt.Item{"k": {}}, Reviewer: &tt.Person{}}}
	cases := []struct {
		path, drop string
		change     func(*tt.Record)
	}{
		{"items[].price", ".?price", func(d *tt.Record) { d.Items[0].Price = 1 }},             // a list of structs
		{"refs[].price", ".?price", func(d *tt.Record) { d.Refs[0].Price = 1 }},               // a list of pointers
		{"byKey{}.price", ".?price", func(d *tt.Record) { d.ByKey["k"] = tt.Item{Price: 1} }}, // a map of structs
		{"pair[].price", ".?price", func(d *tt.Record) { d.Pair[1].Price = 1 }},               // an array
		{"reviewer.email", ".?email", func(d *tt.Record) { d.Reviewer.Email = "e" }},          // a pointer
		{"owner.email", ".?email", func(d *tt.Record) { d.Owner.Email = "e" }},                // a struct
		{"version", ".?version", func(d *tt.Record) { d.Version = 2 }},                        // an inlined embedded struct
		{"ptrByKey", "", func(d *tt.Record) { d.PtrByKey = map[string]*tt.Item{"k": {}} }},    // a map of pointers: the whole validation
		{"secret", "", func(d *tt.Record) { d.Secret = "s" }},
	}
	editor := caller{user: evaluate.UserInfo{Name: "ed", Groups: []string{"modelgen:role:editor", "modelgen:tenant:t1"}}, subject: &rbac.Subject{Tenant: "t1", Roles: []string{"editor"}}, roles: []string{"editor"}}
	v, err := evaluate.NewEvaluator(base)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			var cur tt.Record
			mustRound(old, &cur)
			c.change(&cur)
			pr := pair{old: &old, cur: &cur, who: editor}
			if ok, _ := goVerdict(pr, tt.RecordAccess.Table()); ok {
				t.Fatalf("CheckWrite lets an editor change %s", c.path)
			}
			if got := serverVerdict(v, pr); got.Allowed || !strings.Contains(strings.Join(got.Messages, "\n"), c.path+" may not be changed by ed with roles editor") {
				t.Fatalf("the policy does not refuse the change of %s by naming it: %v", c.path, got.Messages)
			}
			p := base.DeepCopy()
			i := slices.IndexFunc(checks, func(k policy.Check) bool { return k.Path == c.path })
			if i < 0 {
				t.Fatalf("no validation judges %s", c.path)
			}
			val := &p.Spec.Validations[fields+i]
			if c.drop == "" {
				p.Spec.Validations = slices.Delete(p.Spec.Validations, fields+i, fields+i+1)
			} else {
				if !strings.Contains(val.Expression, c.drop) {
					t.Fatalf("%s: %s not in %s", c.path, c.drop, val.Expression)
				}
				// the rule now selects a field no object has: the row never changes
				val.Expression = strings.ReplaceAll(val.Expression, c.drop, ".?dropped")
			}
			mv, err := evaluate.NewEvaluator(p)
			if err != nil {
				t.Fatal(err)
			}
			if got := serverVerdict(mv, pr); !got.Allowed {
				t.Errorf("with %s dropped the change is still refused: %v", c.path, got.Messages)
			}
		})
	}
}

// TestPolicyCostOfLargeObjects: the policy's variables (each container
// normalized once) and rules stay within the plugin's runtime cost budget
// on an object of 400 KB whose rules walk 3,000 elements in each of a list,
// a list of pointers and a map (the same shape at 4 MB, above the API
// server's request limit, exceeds it): the admin's change of
// the last element is admitted, the editor's refused by naming the field
// (not by a cost error).
func TestPolicyCostOfLargeObjects(t *testing.T) {
	base, _ := docPolicy(t)
	v, err := evaluate.NewEvaluator(base)
	if err != nil {
		t.Fatal(err)
	}
	const n = 3000
	old := tt.Record{Doc: tt.Doc{Tenant: "t1", ByKey: map[string]tt.Item{}}}
	for i := range n {
		it := tt.Item{SKU: fmt.Sprintf("sku-%d", i), Price: float64(i), Note: "n"}
		old.Items = append(old.Items, it)
		old.Refs = append(old.Refs, &it)
		old.ByKey[it.SKU] = it
	}
	var cur tt.Record
	mustRound(old, &cur)
	cur.Items[n-1].Price = -1
	data, _ := json.Marshal(cur)
	t.Logf("object of %d bytes", len(data))
	for _, c := range []struct {
		role  string
		allow bool
	}{{"admin", true}, {"editor", false}} {
		who := caller{user: evaluate.UserInfo{Name: "ed", Groups: []string{"modelgen:role:" + c.role, "modelgen:tenant:t1"}}, subject: &rbac.Subject{Tenant: "t1", Roles: []string{c.role}}, roles: []string{c.role}}
		got := serverVerdict(v, pair{old: &old, cur: &cur, who: who})
		if got.Allowed != c.allow {
			t.Errorf("%s changing items[%d].price: allowed %v, want %v: %v", c.role, n-1, got.Allowed, c.allow, got.Messages)
		}
		if !c.allow && !strings.Contains(strings.Join(got.Messages, "\n"), "items[].price may not be changed by ed") {
			t.Errorf("%s: refused for another reason than the field: %v", c.role, got.Messages)
		}
	}
}
