// Package wellknown uses every well-known Kubernetes type, property names
// that are also schema keywords, and every numeric Go type.
//
// +groupName=known.example.com
package wellknown
