// Package operator runs an example operator: a controller-runtime manager
// for the cluster of the current kubeconfig, with the client-go types and
// the example's API in its scheme.
package operator

import (
	"os"

	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
)

// Main builds the manager, lets setup register the reconcilers, and runs
// until a signal; it exits the process on failure.
func Main(name string, addToScheme func(*runtime.Scheme) error, setup func(ctrl.Manager) error) {
	ctrl.SetLogger(zap.New())
	log := ctrl.Log.WithName(name)
	scheme := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{clientgoscheme.AddToScheme, addToScheme} {
		if err := add(scheme); err != nil {
			log.Error(err, "building the scheme")
			os.Exit(1)
		}
	}
	mgr, err := ctrl.NewManager(ctrl.GetConfigOrDie(), ctrl.Options{Scheme: scheme})
	if err != nil {
		log.Error(err, "creating the manager")
		os.Exit(1)
	}
	if err := setup(mgr); err != nil {
		log.Error(err, "registering the controller")
		os.Exit(1)
	}
	if err := mgr.Start(ctrl.SetupSignalHandler()); err != nil {
		log.Error(err, "running")
		os.Exit(1)
	}
}
