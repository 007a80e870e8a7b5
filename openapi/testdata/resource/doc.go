// Package resource is a custom resource with spec, status and a list.
//
// +groupName=shop.example.com
package resource
