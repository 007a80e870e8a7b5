// Package v1 serves the shop.example.com API, as the other package does.
// +groupName=shop.example.com
package v1

// Order is a plain model with a tenant key, so it gets an rbac table.
//
// +modelgen:model
type Order struct {
	Tenant string `json:"tenant" access:"tenant"`
	Total  int    `json:"total" access:"read=clerk,write=clerk"`
}
