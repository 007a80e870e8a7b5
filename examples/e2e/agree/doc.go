// Package agree proves the agreement harness (github.com/modelgen/modelgen/agree)
// faithful: with the envtest build tag, its tests start a real kube-apiserver and
// etcd, install the CRDs the harness judges with, send boundary documents as
// dry-run creates and demand the server's verdict equal the harness's
// in-process one (the API server's validation code run without a server).
//
//	export KUBEBUILDER_ASSETS=$(hack/controlplane.sh)
//	cd examples && go test -tags envtest ./e2e/agree/
package agree
