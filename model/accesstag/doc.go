// Package accesstag parses the `access` struct tag and the
// `+modelgen:access:default` type marker; model.Load resolves them over the model
// into access rules: which roles may read and write each field, which field
// holds the tenant key, and the flattened field table of every struct type
// that the rbac backend (gen/rbac) turns into generated filters.
//
// # Grammar
//
//	tag     = clause *( "," clause )
//	clause  = "tenant" | "read=" roles | "write=" roles
//	roles   = "*" | "-" | role *( "|" role )
//	role    = a DNS-1123 label: [a-z0-9]([-a-z0-9]*[a-z0-9])?, at most 63 bytes
//
// Examples:
//
//	PayerID  string `json:"payerId"  access:"read=tenant-admin|auditor,write=tenant-admin"`
//	TenantID string `json:"tenantId" access:"tenant,read=*,write=-"`
//
// `*` is every role named by any access tag or marker of the same Go
// package; `-` is no role. read and write are independent: write does not
// imply read. No space is allowed anywhere.
//
// # Defaults
//
// A type marker gives the rules of its fields that have no read (or no
// write) clause of their own:
//
//	// +modelgen:access:default="read=*,write=tenant-admin"
//
// Several markers on one type combine; a clause may appear once. Quote the
// value when it holds a comma (controller-tools' marker syntax). A clause
// that neither the field nor its type gives means no role: an untagged field
// of a type without a default is visible to nobody (fail closed).
//
// # Nesting
//
// A field whose type is a struct of the user's packages (directly, through a
// pointer, or as the element of a slice, array or map) is a container: its
// own rule decides whether the container may be seen or changed at all, and
// the fields inside follow the rules of their own type. A role reads a
// nested field only when it may read every field on the way to it.
// Embedded structs are containers like any other (inlined ones add no JSON
// path segment). Types from outside the user's packages (metav1.ObjectMeta,
// resource.Quantity...) are leaves: governed as a whole by the field's rule.
//
// # Tenant key
//
// Exactly one string field, reached from the type through structs and
// pointers only, may carry `tenant`; it is the tenant that owns the object.
// A type without one gets no generated filter (and a warning when it is an
// entry point: a resource root or a +modelgen:model type).
//
// # Errors
//
// Every mistake is a positioned error (file:line:col of the offending byte in
// the tag or marker): syntax, an invalid role name, `tenant` on a
// non-string, two tenant keys, a recursive type, a field shape the
// generator cannot filter without reflection.
//
// A package whose types carry no access tag and no access marker is not
// governed: no rules, no extensions, no generated code.
package accesstag
