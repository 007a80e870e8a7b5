// Package rbac is the run-time half of modelgen's field-level access
// control: it prunes what a subject may not read from objects and rejects
// (or strips) changes to what it may not write, per tenant and role, with
// code generated from `access` tags. It imports only the standard library.
//
// # How it fits together
//
// modelgen generates, for every struct type that has a tenant key, a field
// table and three functions made of bit tests and assignments (prune,
// compare, restore), wrapped in a *Type[T]:
//
//	var PaymentOrderAccess = rbac.NewType(paymentOrderTable, rbac.Funcs[PaymentOrder]{...})
//
// At run time a Store holds the current Policy (tenant overrides of the tag
// defaults) and a Guard binds a Store to a generated type:
//
//	store := rbac.NewStore(nil) // the tags' defaults for every tenant
//	orders := rbac.NewGuard(store, v1alpha1.PaymentOrderAccess)
//	err := orders.Filter(rbac.Subject{Tenant: "acme", Roles: []string{"auditor"}}, &order)
//
// # Reads
//
// Filter zeroes, in place, every field the subject may not read; FilterList
// does the same for a slice. A field is readable when one of the subject's
// roles may read it and every container on the way to it.
//
// # Writes
//
// CheckWrite compares the stored object with the new one and returns a
// *WriteError listing the JSON paths of every change to a field the subject
// may not write; StripWrite restores those fields from the stored object
// instead (values are copied shallowly: restored slices and maps share
// memory with the stored object). A nil old object is a create: it is
// compared with the zero value. A list or map whose length or keys change
// is a change to the list or map itself, and so is an element of pointer
// type that turns from nil to a struct or back (null and {} are different
// JSON), as is a slice or map field without omitempty that turns from nil
// to empty or back (null against [] or {}); elements are compared field by
// field, added and removed ones
// against the zero value. So a subject that may not write a list or map
// never changes its shape.
//
// # Tenant isolation and failing closed
//
// Every call first checks tenancy: a subject without a tenant, or an object
// (old or new) whose tenant key differs from the subject's, is denied with a
// *TenantError (errors.Is(err, ErrDenied)). A role the policy does not know
// grants nothing: it sees nothing and changes nothing. When Filter or
// FilterList return an error they have zeroed the object (or every element),
// so that ignoring the error leaks nothing. A nil object (the new object of
// a write, or Filter's), a nil guard and a guard without a store or a
// generated type return an *InvalidError (errors.Is(err, ErrInvalid), and
// errors.Is(err, ErrDenied) too): no input makes the package panic.
//
// # Policies
//
// The defaults come from the tags. A Policy overrides them per tenant, per
// type and per role; it is JSON (standard library only), so it can be kept
// in a ConfigMap:
//
//	{
//	  "tenants": {
//	    "globex": {
//	      "types": {
//	        "payments.modelgen.io/v1alpha1.PaymentOrder": {
//	          "auditor": {"read": ["metadata", "spec.amount", "spec.currency", "status.phase"]}
//	        }
//	      }
//	    }
//	  }
//	}
//
// An override replaces the role's rights on that type for that tenant:
// listing a path grants the field and everything inside it (and the
// containers on the way, as containers only); "*" grants every field; a
// missing "write" grants no write. A role named only by a tenant's policy is
// known for that tenant and type. With "listedTenantsOnly": true, tenants
// the policy does not list are denied. Store.Swap replaces the policy
// atomically; calls already running finish with the policy they started
// with.
//
// # Masks and allocation
//
// The rights of a (tenant, role set, type) are compiled once into two bit
// masks (read, write) over the type's field table and cached in the
// policy's snapshot; Filter then allocates nothing.
package rbac
