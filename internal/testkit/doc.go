// Package testkit holds what the module's tests share.
//
// # Goldens
//
// Every test package of the module accepts one -update flag, registered
// here, so that one command rewrites every golden file and generated
// document block:
//
//	go test -short ./... -update   # or ./hack/update.sh, which also regenerates the examples
//
// A test that owns a golden asks Update and, when it is set, writes the
// golden instead of comparing with it. A test package without goldens
// imports this package too (one line, in update_test.go), only so that its
// test binary accepts the flag instead of failing on it.
//
// The package imports only the standard library, so that any test, the
// runtime packages' included, may use it. The API server's in-process
// validation, which needs k8s.io/apiextensions-apiserver, is its
// subpackage apiserver.
package testkit
