// Package invoice holds the benchmark's object: an Invoice with 12 fields,
// one of them a nested struct, and the access rules its generated filter
// (zz_generated.rbac.go) enforces.
package invoice

//go:generate go run github.com/modelgen/modelgen/cmd/modelgen generate --only rbac .

// Invoice is filtered by tenant and role.
//
// +modelgen:model
// +modelgen:access:default="read=admin|billing|auditor,write=admin"
type Invoice struct {
	ID        string   `json:"id"`
	TenantID  string   `json:"tenantId" access:"tenant"`
	Customer  string   `json:"customer"`
	Amount    float64  `json:"amount"`
	Currency  string   `json:"currency"`
	Status    string   `json:"status"`
	IBAN      string   `json:"iban" access:"read=admin|billing"`
	Notes     string   `json:"notes" access:"read=admin"`
	Tags      []string `json:"tags"`
	CreatedAt int64    `json:"createdAt"`
	Priority  int32    `json:"priority" access:"read=admin|billing"`
	Address   Address  `json:"address"`
}

// Address is the nested struct.
//
// +modelgen:access:default="read=*,write=admin"
type Address struct {
	Street  string `json:"street" access:"read=admin|billing"`
	City    string `json:"city"`
	Zip     string `json:"zip" access:"read=admin|billing"`
	Country string `json:"country"`
}
