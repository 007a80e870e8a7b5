// Package container tags a field with roles its container grants none
// of: no role can read or write it, a warning at the tag's role list. A
// field whose roles meet the container's, or whose roles come from its
// type's default, is not warned of; nor is a field that some root type
// lets a role reach (Audit.At is read by a clerk through Draft).
package container

// Order is governed.
//
// +modelgen:model
type Order struct {
	Tenant string `json:"tenant" access:"tenant,read=clerk|admin,write=admin"`
	Spec   Spec   `json:"spec" access:"read=clerk|admin,write=admin"`
	Audit  Audit  `json:"audit" access:"read=admin,write=none"`
}

// Spec holds the items.
type Spec struct {
	// Note may be written by a clerk, but spec lets only admin write.
	Note  string `json:"note" access:"read=clerk,write=clerk"`
	Price int    `json:"price" access:"read=clerk|admin,write=clerk|admin"`
	Items []Item `json:"items" access:"read=clerk|admin,write=admin"`
}

// Item is inside a list inside spec.
type Item struct {
	SKU string `json:"sku" access:"read=clerk,write=admin"`
}

// Audit has a default every field takes, wherever Audit is held.
//
// +modelgen:access:default="read=admin|clerk,write=admin"
type Audit struct {
	By string `json:"by"`
	At string `json:"at" access:"read=clerk,write=admin"`
}

// Draft holds an Audit a clerk may read.
//
// +modelgen:model
type Draft struct {
	Tenant string `json:"tenant" access:"tenant,read=clerk|admin,write=admin"`
	Audit  Audit  `json:"audit" access:"read=clerk,write=none"`
}
