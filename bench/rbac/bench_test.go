// Package rbacbench compares modelgen's generated field filter with the
// libraries a Go service would otherwise use: a reflection-based field mask
// (github.com/mennanov/fieldmask-utils) and a policy engine asked once per
// field (github.com/casbin/casbin/v2). Run ./compare.sh for a ratio table.
package rbacbench

import (
	"reflect"
	"testing"

	"github.com/casbin/casbin/v2"
	casbinmodel "github.com/casbin/casbin/v2/model"
	fieldmask "github.com/mennanov/fieldmask-utils"

	"github.com/modelgen/modelgen/bench/rbac/invoice"
	"github.com/modelgen/modelgen/rbac"
)

// template is the object every benchmark filters, copied afresh each time.
var template = invoice.Invoice{
	ID: "inv-1", TenantID: "acme", Customer: "Initech", Amount: 1234.5, Currency: "EUR",
	Status: "open", IBAN: "DE89370400440532013000", Notes: "net 30", Tags: []string{"q3", "eu"},
	CreatedAt: 1700000000, Priority: 2,
	Address: invoice.Address{Street: "1 Main St", City: "Berlin", Zip: "10115", Country: "DE"},
}

// The auditor may read 10 of the 15 fields (12 plus the nested struct's
// four, minus what only admin and billing see).
var (
	auditor      = rbac.Subject{Tenant: "acme", Roles: []string{"auditor"}}
	auditorPaths = []string{"ID", "TenantID", "Customer", "Amount", "Currency", "Status", "Tags", "CreatedAt", "Address.City", "Address.Country"}
	// want is what every implementation must leave.
	want = invoice.Invoice{
		ID: "inv-1", TenantID: "acme", Customer: "Initech", Amount: 1234.5, Currency: "EUR",
		Status: "open", Tags: []string{"q3", "eu"}, CreatedAt: 1700000000,
		Address: invoice.Address{City: "Berlin", Country: "DE"},
	}
)

func BenchmarkFilter(b *testing.B) {
	b.Run("modelgen", benchModelgen)
	b.Run("fieldmask-utils", benchFieldmask)
	b.Run("casbin", benchCasbin)
}

func benchModelgen(b *testing.B) {
	guard := rbac.NewGuard(rbac.NewStore(nil), invoice.InvoiceAccess)
	filter := func(v *invoice.Invoice) {
		if err := guard.Filter(auditor, v); err != nil {
			b.Fatal(err)
		}
	}
	run(b, filter)
}

func benchFieldmask(b *testing.B) {
	mask, err := fieldmask.MaskFromPaths(auditorPaths, func(s string) string { return s })
	if err != nil {
		b.Fatal(err)
	}
	run(b, func(v *invoice.Invoice) {
		var dst invoice.Invoice
		if err := fieldmask.StructToStruct(mask, v, &dst); err != nil {
			b.Fatal(err)
		}
		*v = dst
	})
}

const casbinModel = `
[request_definition]
r = sub, dom, obj, act

[policy_definition]
p = sub, dom, obj, act

[role_definition]
g = _, _, _

[policy_effect]
e = some(where (p.eft == allow))

[matchers]
m = g(r.sub, p.sub, r.dom) && r.dom == p.dom && r.obj == p.obj && r.act == p.act
`

// casbinFields are the fields the casbin filter asks about, by path, with
// how to zero each.
var casbinFields = []struct {
	path string
	zero func(*invoice.Invoice)
}{
	{"id", func(v *invoice.Invoice) { v.ID = "" }},
	{"tenantId", func(v *invoice.Invoice) { v.TenantID = "" }},
	{"customer", func(v *invoice.Invoice) { v.Customer = "" }},
	{"amount", func(v *invoice.Invoice) { v.Amount = 0 }},
	{"currency", func(v *invoice.Invoice) { v.Currency = "" }},
	{"status", func(v *invoice.Invoice) { v.Status = "" }},
	{"iban", func(v *invoice.Invoice) { v.IBAN = "" }},
	{"notes", func(v *invoice.Invoice) { v.Notes = "" }},
	{"tags", func(v *invoice.Invoice) { v.Tags = nil }},
	{"createdAt", func(v *invoice.Invoice) { v.CreatedAt = 0 }},
	{"priority", func(v *invoice.Invoice) { v.Priority = 0 }},
	{"address.street", func(v *invoice.Invoice) { v.Address.Street = "" }},
	{"address.city", func(v *invoice.Invoice) { v.Address.City = "" }},
	{"address.zip", func(v *invoice.Invoice) { v.Address.Zip = "" }},
	{"address.country", func(v *invoice.Invoice) { v.Address.Country = "" }},
}

func benchCasbin(b *testing.B) {
	m, err := casbinmodel.NewModelFromString(casbinModel)
	if err != nil {
		b.Fatal(err)
	}
	e, err := casbin.NewEnforcer(m)
	if err != nil {
		b.Fatal(err)
	}
	for _, p := range []string{"id", "tenantId", "customer", "amount", "currency", "status", "tags", "createdAt", "address.city", "address.country"} {
		if _, err := e.AddPolicy("auditor", "acme", p, "read"); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := e.AddGroupingPolicy("alice", "auditor", "acme"); err != nil {
		b.Fatal(err)
	}
	run(b, func(v *invoice.Invoice) {
		if v.TenantID != "acme" {
			b.Fatal("tenant")
		}
		for _, f := range casbinFields {
			ok, err := e.Enforce("alice", "acme", f.path, "read")
			if err != nil {
				b.Fatal(err)
			}
			if !ok {
				f.zero(v)
			}
		}
	})
}

// run checks the filter once, then times it on a fresh copy each iteration.
func run(b *testing.B, filter func(*invoice.Invoice)) {
	v := template
	filter(&v)
	if !reflect.DeepEqual(v, want) {
		b.Fatalf("filtered to %+v, want %+v", v, want)
	}
	b.ReportAllocs()
	for b.Loop() {
		v = template
		filter(&v)
	}
}
