// Command payments-operator runs the PaymentOrder operator against the
// cluster of the current kubeconfig.
package main

import (
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/modelgen/modelgen/examples/internal/operator"
	v1alpha1 "github.com/modelgen/modelgen/examples/payments/api/v1alpha1"
	"github.com/modelgen/modelgen/examples/payments/controller"
)

func main() {
	operator.Main("payments-operator", v1alpha1.AddToScheme, func(mgr ctrl.Manager) error {
		return (&controller.Reconciler{Client: mgr.GetClient()}).SetupWithManager(mgr)
	})
}
