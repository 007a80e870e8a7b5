// Command payments-operator runs the PaymentOrder operator against the
// cluster of --kubeconfig (or $KUBECONFIG, or the in-cluster config), with
// the simulated payment gateway. Run it with -h for its flags.
package main

import (
	"flag"
	"fmt"
	"os"

	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/modelgen/modelgen/examples/payments/operator"
)

func main() {
	o := operator.Defaults()
	o.BindFlags(flag.CommandLine) // --kubeconfig is controller-runtime's own flag
	zo := zap.Options{}
	zo.BindFlags(flag.CommandLine)
	flag.Parse()
	ctrl.SetLogger(zap.New(zap.UseFlagOptions(&zo)))

	cfg, err := ctrl.GetConfig()
	if err == nil {
		err = operator.Run(ctrl.SetupSignalHandler(), cfg, o)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, operator.Name+":", err)
		os.Exit(1)
	}
}
