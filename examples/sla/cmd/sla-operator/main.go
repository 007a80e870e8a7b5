// Command sla-operator runs the SLA operator against the cluster of the
// current kubeconfig.
package main

import (
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/modelgen/modelgen/examples/internal/operator"
	v1 "github.com/modelgen/modelgen/examples/sla/api/v1"
	"github.com/modelgen/modelgen/examples/sla/controller"
)

func main() {
	operator.Main("sla-operator", v1.AddToScheme, func(mgr ctrl.Manager) error {
		return (&controller.Reconciler{Client: mgr.GetClient()}).SetupWithManager(mgr)
	})
}
