// Command sla-operator runs the SLA operator: it evaluates the PromQL query
// of every SLAContract against a Prometheus server and moves the contract
// through its guarded lifecycle.
//
//	sla-operator --prometheus-url=http://prometheus.monitoring:9090 [--leader-elect]
//
// It uses the cluster of --kubeconfig, $KUBECONFIG, the in-cluster config or
// ~/.kube/config, in that order; serves /healthz and /readyz on
// --health-probe-bind-address and metrics on --metrics-bind-address.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/go-playground/validator/v10"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/webhook"

	slav1 "github.com/modelgen/modelgen/examples/sla/api/v1alpha1"
	"github.com/modelgen/modelgen/examples/sla/controller"
	"github.com/modelgen/modelgen/examples/sla/metrics"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stderr))
}

// options are the command's flags.
type options struct {
	prometheusURL     string
	prometheusTimeout time.Duration
	pollInterval      time.Duration
	metricsAddr       string
	probeAddr         string
	leaderElect       bool
	leaderElectionNS  string
	webhook           bool
	webhookPort       int
	webhookCertDir    string
	zap               zap.Options
}

func parse(args []string, stderr io.Writer) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("sla-operator", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.prometheusURL, "prometheus-url", "http://localhost:9090", "address of the Prometheus HTTP API")
	fs.DurationVar(&o.prometheusTimeout, "prometheus-timeout", 10*time.Second, "timeout of one Prometheus query")
	fs.DurationVar(&o.pollInterval, "poll-interval", controller.DefaultPollInterval, "how often a contract with no running threshold is evaluated (a running one is evaluated at its deadline)")
	fs.StringVar(&o.metricsAddr, "metrics-bind-address", ":8080", "address of the metrics endpoint (0 disables it)")
	fs.StringVar(&o.probeAddr, "health-probe-bind-address", ":8081", "address of /healthz and /readyz")
	fs.BoolVar(&o.leaderElect, "leader-elect", false, "elect a leader, so that only one replica reconciles")
	fs.StringVar(&o.leaderElectionNS, "leader-election-namespace", "", "namespace of the leader-election lease (default: the pod's namespace)")
	fs.BoolVar(&o.webhook, "webhook", false, "serve the validating webhook of config/webhook (the validate tags no CRD schema can carry, such as iso4217)")
	fs.IntVar(&o.webhookPort, "webhook-port", 9443, "port of the validating webhook")
	fs.StringVar(&o.webhookCertDir, "webhook-cert-dir", "", "directory of the webhook's tls.crt and tls.key (default: controller-runtime's)")
	// --kubeconfig is registered on the default flag set by controller-runtime.
	if f := flag.CommandLine.Lookup("kubeconfig"); f != nil {
		fs.Var(f.Value, f.Name, f.Usage)
	}
	o.zap.BindFlags(fs)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	return o, nil
}

func run(args []string, stderr io.Writer) int {
	o, err := parse(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(stderr, "sla-operator:", err)
		return 2
	}
	ctrl.SetLogger(zap.New(zap.UseFlagOptions(&o.zap), zap.WriteTo(stderr)))
	if err := start(o); err != nil {
		fmt.Fprintln(stderr, "sla-operator:", err)
		return 1
	}
	return 0
}

func start(o *options) error {
	source, err := metrics.NewPrometheus(o.prometheusURL, o.prometheusTimeout)
	if err != nil {
		return err
	}
	scheme := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(scheme); err != nil {
		return err
	}
	if err := slav1.AddToScheme(scheme); err != nil {
		return err
	}
	cfg, err := ctrl.GetConfig()
	if err != nil {
		return err
	}
	var hooks webhook.Server
	if o.webhook {
		hooks = webhook.NewServer(webhook.Options{Port: o.webhookPort, CertDir: o.webhookCertDir})
	}
	mgr, err := ctrl.NewManager(cfg, ctrl.Options{
		WebhookServer:           hooks,
		Scheme:                  scheme,
		Metrics:                 metricsserver.Options{BindAddress: o.metricsAddr},
		HealthProbeBindAddress:  o.probeAddr,
		LeaderElection:          o.leaderElect,
		LeaderElectionID:        "sla-operator.sla.example.com",
		LeaderElectionNamespace: o.leaderElectionNS,
	})
	if err != nil {
		return err
	}
	r := &controller.Reconciler{
		Client:       mgr.GetClient(),
		Metrics:      source,
		Clock:        controller.RealClock{},
		Recorder:     mgr.GetEventRecorder("sla-operator"),
		PollInterval: o.pollInterval,
	}
	if err := r.SetupWithManager(mgr); err != nil {
		return err
	}
	if o.webhook {
		// the application's validator: register custom validations on it
		if err := (&slav1.SLAContractWebhook{Validate: validator.New()}).SetupWebhookWithManager(mgr); err != nil {
			return err
		}
	}
	if err := mgr.AddHealthzCheck("healthz", healthz.Ping); err != nil {
		return err
	}
	if err := mgr.AddReadyzCheck("readyz", healthz.Ping); err != nil {
		return err
	}
	return mgr.Start(ctrl.SetupSignalHandler())
}
