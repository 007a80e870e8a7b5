// Package upstream is modelgen's upstream-compatibility tier: its test runs
// controller-gen and modelgen side by side on real Kubernetes API modules
// from the Go module proxy, unmodified. It lives in a module of its own so
// that those APIs and controller-gen's command stay out of modelgen's
// module; hack/test.sh runs it with GOWORK=off.
package upstream
