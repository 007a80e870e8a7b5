// Package errors holds one access mistake per line marked `want`: the test
// expects a diagnostic on that line whose message matches the quoted text.
// A mistake in a marker is expected by `want-next` on the line above it (a
// trailing comment would become part of the marker); TestPositions checks
// the markers' columns.
package errors

// Order has a bad role, a tenant key on a non-string and two tenant keys.
//
// +modelgen:model
// want-next `invalid role name "Admin"`
// +modelgen:access:default="read=*,write=Admin"
type Order struct {
	ID     string   `json:"id" access:"read=a||b"` // want `empty role name`
	Owner  string   `json:"owner" access:"tenant"`
	Count  int      `json:"count" access:"tenant"`        // want `tenant key must be a string, not int`
	Region string   `json:"region" access:"tenant"`       // want `Order has two tenant keys, owner and region`
	Note   string   `json:"note" access:"reed=x"`         // want `unknown clause "reed"`
	Other  string   `json:"other" access:"read=x,read=y"` // want `duplicate read clause`
	Grid   [][]Cell `json:"grid"`                         // want `holds a struct in a way generated filters do not support`
}

// Cell is held in a list of lists.
type Cell struct {
	V string `json:"v" access:"read=x"`
}

// Forest holds a recursive type.
//
// +modelgen:model
type Forest struct {
	Tree Node `json:"tree"`
}

// Node is recursive.
type Node struct {
	Name     string `json:"name" access:"read=x"`
	Children []Node `json:"children"` // want `Node.Children makes Node recursive`
}

// Marked has a tenant clause in its default.
//
// +modelgen:model
// want-next `tenant is a field's tag, not a default`
// +modelgen:access:default=tenant
type Marked struct {
	A string `json:"a" access:"read=x"`
}
