// Package controlplane starts the real kube-apiserver and etcd that the
// envtest suites run against (KUBEBUILDER_ASSETS, from hack/controlplane.sh),
// with the examples' generated CRDs installed, and with limits that hold on
// 2 busy cores.
package controlplane

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"time"

	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// Start starts the control plane with every CRD under examples/config/crd/bases
// plus extra ones; stop it with env.Stop.
func Start(extra ...*apiext.CustomResourceDefinition) (*envtest.Environment, *rest.Config, error) {
	if os.Getenv("KUBEBUILDER_ASSETS") == "" {
		return nil, nil, errors.New("KUBEBUILDER_ASSETS is not set: run export KUBEBUILDER_ASSETS=$(hack/controlplane.sh)")
	}
	_, self, _, _ := runtime.Caller(0)
	env := &envtest.Environment{
		CRDDirectoryPaths:        []string{filepath.Join(filepath.Dir(self), "..", "..", "..", "config", "crd", "bases")},
		CRDs:                     extra,
		ErrorIfCRDPathMissing:    true,
		ControlPlaneStartTimeout: 2 * time.Minute,
		ControlPlaneStopTimeout:  time.Minute,
		CRDInstallOptions:        envtest.CRDInstallOptions{MaxTime: 2 * time.Minute},
	}
	cfg, err := env.Start()
	return env, cfg, err
}
