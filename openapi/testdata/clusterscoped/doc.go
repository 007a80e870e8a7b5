// Package clusterscoped is a cluster-scoped resource without a status
// subresource and without a List type.
//
// +groupName=infra.example.com
// +versionName=v2
package clusterscoped
