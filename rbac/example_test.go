package rbac_test

import (
	"errors"
	"fmt"

	"github.com/modelgen/modelgen/rbac"
	"github.com/modelgen/modelgen/rbac/internal/testtypes"
)

func ExampleGuard_Filter() {
	store := rbac.NewStore(nil) // the tags' defaults
	docs := rbac.NewGuard(store, testtypes.DocAccess)

	doc := testtypes.Doc{Tenant: "acme", Title: "Q3 report", Secret: "s3cr3t", Count: 3,
		Owner: testtypes.Person{Name: "Ada", Email: "ada@acme.example"}}
	viewer := rbac.Subject{Tenant: "acme", Roles: []string{"viewer"}}
	if err := docs.Filter(viewer, &doc); err != nil {
		panic(err)
	}
	fmt.Printf("title=%q secret=%q count=%d owner=%q\n", doc.Title, doc.Secret, doc.Count, doc.Owner.Name)
	// Output: title="Q3 report" secret="" count=3 owner=""
}

func ExampleGuard_Filter_otherTenant() {
	docs := rbac.NewGuard(rbac.NewStore(nil), testtypes.DocAccess)
	doc := testtypes.Doc{Tenant: "globex", Title: "merger plan"}
	err := docs.Filter(rbac.Subject{Tenant: "acme", Roles: []string{"admin"}}, &doc)

	var te *rbac.TenantError
	fmt.Println(errors.As(err, &te), errors.Is(err, rbac.ErrDenied), doc.Title == "")
	fmt.Println(err)
	// Output:
	// true true true
	// rbac: github.com/modelgen/modelgen/rbac/internal/testtypes.Doc: object of tenant "globex" denied to a subject of tenant "acme"
}

func ExampleGuard_CheckWrite() {
	docs := rbac.NewGuard(rbac.NewStore(nil), testtypes.DocAccess)
	old := testtypes.Doc{Tenant: "acme", Title: "draft", Secret: "a",
		Items: []testtypes.Item{{SKU: "x", Price: 1}}}
	cur := old
	cur.Items = []testtypes.Item{{SKU: "x", Price: 2}}
	cur.Title, cur.Secret = "final", "b"

	editor := rbac.Subject{Tenant: "acme", Roles: []string{"editor"}}
	fmt.Println(docs.CheckWrite(editor, &old, &cur))

	stripped, err := docs.StripWrite(editor, &old, &cur)
	fmt.Println(stripped, err, cur.Title, cur.Secret, cur.Items[0].Price)
	// Output:
	// rbac: github.com/modelgen/modelgen/rbac/internal/testtypes.Doc: may not change items[0].price, secret
	// [items[0].price secret] <nil> final a 1
}

func ExampleParsePolicy() {
	policy, err := rbac.ParsePolicy([]byte(`{
	  "tenants": {
	    "globex": {
	      "types": {
	        "github.com/modelgen/modelgen/rbac/internal/testtypes.Doc": {
	          "viewer": {"read": ["title", "owner.name"]}
	        }
	      }
	    }
	  }
	}`), testtypes.DocAccess.Table())
	if err != nil {
		panic(err)
	}
	docs := rbac.NewGuard(rbac.NewStore(policy), testtypes.DocAccess)
	for _, tenant := range []string{"acme", "globex"} {
		read, _, _ := docs.Paths(rbac.Subject{Tenant: tenant, Roles: []string{"viewer"}})
		fmt.Println(tenant, read)
	}
	// Output:
	// acme [(Base) id version tenant title count score tags reviewer reviewer.name items items[].sku refs refs[].sku byKey byKey{}.sku pair pair[].sku kind notes lines lines[].sku]
	// globex [title owner owner.name]
}
