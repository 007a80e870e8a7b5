package rbac_test

import (
	"encoding/json"
	"errors"
	"os/exec"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelgen/modelgen/rbac"
	"github.com/modelgen/modelgen/rbac/internal/testtypes"
)

// TestStandardLibraryOnly keeps the run time free of modelgen's
// dependencies: an application importing rbac pays for nothing else.
func TestStandardLibraryOnly(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "github.com/modelgen/modelgen/rbac").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if p != "github.com/modelgen/modelgen/rbac" {
			t.Errorf("rbac depends on %s; it may import only the standard library", p)
		}
	}
}

func TestFilterAllocatesNothing(t *testing.T) {
	docs := rbac.NewGuard(rbac.NewStore(nil), testtypes.DocAccess)
	subj := rbac.Subject{Tenant: "acme", Roles: []string{"viewer", "auditor"}}
	doc := randomDoc(7, "acme")
	if err := docs.Filter(subj, doc); err != nil { // compiles the masks
		t.Fatal(err)
	}
	list := []testtypes.Doc{*randomDoc(8, "acme"), *randomDoc(9, "acme")}
	allocs := testing.AllocsPerRun(200, func() {
		_ = docs.Filter(subj, doc)
		_ = docs.FilterList(subj, list)
	})
	if allocs != 0 {
		t.Fatalf("Filter allocates %v times per call", allocs)
	}
}

// TestPolicySwapUnderLoad swaps policies while readers filter: run with
// -race. Every filtered object must match one of the two policies exactly.
func TestPolicySwapUnderLoad(t *testing.T) {
	table := testtypes.DocAccess.Table()
	titleOnly := mustPolicy(t, `{"tenants":{"acme":{"types":{"`+table.Name()+`":{"viewer":{"read":["title"]}}}}}}`)
	secretOnly := mustPolicy(t, `{"tenants":{"acme":{"types":{"`+table.Name()+`":{"viewer":{"read":["secret"]}}}}}}`)
	store := rbac.NewStore(titleOnly)
	docs := rbac.NewGuard(store, testtypes.DocAccess)
	subj := rbac.Subject{Tenant: "acme", Roles: []string{"viewer"}}

	var stop atomic.Bool
	var wg sync.WaitGroup
	var seen [2]atomic.Int64
	errs := make(chan error, 8)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !stop.Load() {
				d := testtypes.Doc{Tenant: "acme", Title: "t", Secret: "s", Count: 1}
				if err := docs.Filter(subj, &d); err != nil {
					errs <- err
					return
				}
				switch {
				case reflect.DeepEqual(d, testtypes.Doc{Title: "t"}):
					seen[0].Add(1)
				case reflect.DeepEqual(d, testtypes.Doc{Secret: "s"}):
					seen[1].Add(1)
				default:
					errs <- errors.New("a mix of two policies")
					return
				}
			}
		}()
	}
	for i := range 2000 {
		if i%2 == 0 {
			store.Swap(secretOnly)
		} else {
			store.Swap(titleOnly)
		}
	}
	deadline := time.Now().Add(time.Minute)
	for (seen[0].Load() == 0 || seen[1].Load() == 0) && len(errs) == 0 && time.Now().Before(deadline) {
		store.Swap(secretOnly)
		store.Swap(titleOnly)
	}
	stop.Store(true)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if seen[0].Load() == 0 || seen[1].Load() == 0 {
		t.Fatalf("in a minute of swapping, the readers saw policy A %d times and policy B %d times", seen[0].Load(), seen[1].Load())
	}
}

func mustPolicy(t *testing.T, js string) *rbac.Policy {
	t.Helper()
	p, err := rbac.ParsePolicy([]byte(js), testtypes.DocAccess.Table())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestParsePolicyErrors(t *testing.T) {
	name := testtypes.DocAccess.Table().Name()
	for _, tt := range []struct{ js, want string }{
		{`{"tenants":{"a":{"types":{"nope.Doc":{}}}}}`, `unknown type "nope.Doc"`},
		{`{"tenants":{"a":{"types":{"` + name + `":{"viewer":{"read":["titel"]}}}}}}`, `has no field "titel"`},
		{`{"tenants":{"a":{"types":{"` + name + `":{"Viewer":{}}}}}}`, `invalid role name "Viewer"`},
		{`{"tenants":{"":{}}}`, "empty tenant name"},
		{`{"tenants":{},"extra":1}`, `unknown field "extra"`},
		{`{"tenants":{}} {}`, "data after the JSON document"},
		{`[`, "unexpected EOF"},
	} {
		_, err := rbac.ParsePolicy([]byte(tt.js), testtypes.DocAccess.Table())
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParsePolicy(%s) = %v, want ...%s...", tt.js, err, tt.want)
		}
	}
}

func TestListedTenantsOnly(t *testing.T) {
	name := testtypes.DocAccess.Table().Name()
	p := mustPolicy(t, `{"listedTenantsOnly":true,"tenants":{"acme":{"types":{"`+name+`":{}}}}}`)
	docs := rbac.NewGuard(rbac.NewStore(p), testtypes.DocAccess)
	d := testtypes.Doc{Tenant: "globex", Title: "x"}
	var te *rbac.TenantError
	if err := docs.Filter(rbac.Subject{Tenant: "globex", Roles: []string{"admin"}}, &d); !errors.As(err, &te) || d.Title != "" {
		t.Fatalf("an unlisted tenant passed: %v", err)
	}
	d = testtypes.Doc{Tenant: "acme", Title: "x"}
	if err := docs.Filter(rbac.Subject{Tenant: "acme", Roles: []string{"admin"}}, &d); err != nil || d.Title != "x" {
		t.Fatalf("a listed tenant was denied: %v", err)
	}
}

func TestMalformedTableDeniesEverything(t *testing.T) {
	for _, tbl := range []*rbac.Table{
		rbac.NewTable("x", 5, []rbac.Field{{Path: "a", Parent: -1}}),
		rbac.NewTable("x", 0, []rbac.Field{{Path: "a", Parent: 0}}),
		rbac.NewTable("x", 0, []rbac.Field{{Path: "a", Parent: -1}, {Path: "a", Parent: -1}}),
		rbac.NewTable("x", 0, []rbac.Field{{Path: "a", Parent: -1, Read: []string{"Bad"}}}),
	} {
		if tbl.Err() == nil {
			t.Fatalf("%+v: no error", tbl.Fields())
		}
		typ := rbac.NewType(tbl, rbac.Funcs[testtypes.Doc]{
			Prune:  func(rbac.Mask, int, *testtypes.Doc) { t.Fatal("pruned with a malformed table") },
			Tenant: func(*testtypes.Doc) string { return "acme" },
		})
		d := testtypes.Doc{Title: "x"}
		if err := rbac.NewGuard(rbac.NewStore(nil), typ).Filter(rbac.Subject{Tenant: "acme"}, &d); err == nil || d.Title != "" {
			t.Fatalf("a malformed table let Filter through: %v", err)
		}
	}
}

func TestStripWriteRestoresRemovedElements(t *testing.T) {
	docs := rbac.NewGuard(rbac.NewStore(nil), testtypes.DocAccess)
	editor := rbac.Subject{Tenant: "acme", Roles: []string{"editor"}}
	old := testtypes.Doc{Tenant: "acme", Items: []testtypes.Item{{SKU: "a", Price: 1}, {SKU: "b", Price: 2}},
		Reviewer: &testtypes.Person{Name: "r", Email: "r@x"}}
	cur := testtypes.Doc{Tenant: "acme", Items: []testtypes.Item{{SKU: "a2", Price: 1}}}
	err := docs.CheckWrite(editor, &old, &cur)
	var we *rbac.WriteError
	if !errors.As(err, &we) || !reflect.DeepEqual(we.Paths, []string{"items[1].price", "reviewer.email"}) {
		t.Fatalf("CheckWrite = %v", err)
	}
	paths, err := docs.StripWrite(editor, &old, &cur)
	if err != nil || !reflect.DeepEqual(paths, we.Paths) {
		t.Fatalf("StripWrite = %v, %v", paths, err)
	}
	want := testtypes.Doc{Tenant: "acme", Items: []testtypes.Item{{SKU: "a2", Price: 1}, {Price: 2}},
		Reviewer: &testtypes.Person{Email: "r@x"}}
	if !reflect.DeepEqual(cur, want) {
		got, _ := json.Marshal(cur)
		t.Fatalf("after StripWrite: %s", got)
	}
}

func TestCreateComparesWithZero(t *testing.T) {
	docs := rbac.NewGuard(rbac.NewStore(nil), testtypes.DocAccess)
	editor := rbac.Subject{Tenant: "acme", Roles: []string{"editor"}}
	cur := testtypes.Doc{Tenant: "acme", Title: "new", Secret: "x", Base: testtypes.Base{ID: "id-1"}}
	var we *rbac.WriteError
	if err := docs.CheckWrite(editor, nil, &cur); !errors.As(err, &we) || !reflect.DeepEqual(we.Paths, []string{"id", "secret"}) {
		t.Fatalf("create: %v", err)
	}
	if _, err := docs.StripWrite(editor, nil, &cur); err != nil || cur.Secret != "" || cur.ID != "" || cur.Title != "new" || cur.Tenant != "acme" {
		t.Fatalf("strip on create: %v %+v", err, cur)
	}
}

func TestPathsHideThePinnedTenantKey(t *testing.T) {
	docs := rbac.NewGuard(rbac.NewStore(nil), testtypes.DocAccess)
	_, write, err := docs.Paths(rbac.Subject{Tenant: "acme", Roles: []string{"viewer"}})
	if err != nil || len(write) != 0 {
		t.Fatalf("viewer writes %v (%v)", write, err)
	}
}

// TestPolicyRefusesTwoTablesOfOneName: two packages generated by separate
// runs (one go:generate each) with one group and version give their kinds
// one table name; a policy over both would apply one package's rules to
// the other's type, so it is refused. The same table twice is one table.
func TestPolicyRefusesTwoTablesOfOneName(t *testing.T) {
	fields := []rbac.Field{{Path: "tenant", Parent: -1}, {Path: "title", Parent: -1, Read: []string{"editor"}}}
	shop := rbac.NewTable("shop.example.com/v1.Order", 0, fields)
	store := rbac.NewTable("shop.example.com/v1.Order", 0, fields)
	doc := []byte(`{"tenants": {"acme": {"types": {"shop.example.com/v1.Order": {"editor": {"read": ["title"]}}}}}}`)
	_, err := rbac.ParsePolicy(doc, shop, store)
	if !errors.Is(err, rbac.ErrInvalid) || !strings.Contains(err.Error(), `two different tables are named "shop.example.com/v1.Order"`) {
		t.Errorf("ParsePolicy over two tables of one name: %v, want them refused", err)
	}
	if _, err := rbac.ParsePolicy(doc, shop, shop); err != nil {
		t.Errorf("ParsePolicy over one table passed twice: %v", err)
	}
}
