// Package errors holds access mistakes, one a line: model.Load reports
// each at its first byte (a role name inside a marker or a tag, a clause,
// a field), as stderr.txt shows.
package errors

// Order has a bad role, a tenant key on a non-string and two tenant keys.
//
// +modelgen:model
// +modelgen:access:default="read=*,write=Admin"
type Order struct {
	ID     string   `json:"id" access:"read=a||b"`
	Owner  string   `json:"owner" access:"tenant"`
	Count  int      `json:"count" access:"tenant"`
	Region string   `json:"region" access:"tenant"`
	Note   string   `json:"note" access:"reed=x"`
	Other  string   `json:"other" access:"read=x,read=y"`
	Grid   [][]Cell `json:"grid"`
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
	Children []Node `json:"children"`
}

// Marked has a tenant clause in its default.
//
// +modelgen:model
// +modelgen:access:default=tenant
type Marked struct {
	A string `json:"a" access:"read=x"`
}
