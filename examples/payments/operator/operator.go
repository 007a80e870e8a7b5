// Package operator assembles the PaymentOrder operator: the manager (metrics,
// probes, leader election on a Lease), the reconciler and the tenant view.
// cmd/payments-operator is flags around it; the envtest suite runs the very
// same assembly. With --webhook it also serves the generated validating
// webhook. To serve one more thing (another controller), add it to Setup.
package operator

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/go-playground/validator/v10"
	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/healthz"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/webhook"

	v1 "github.com/modelgen/modelgen/examples/payments/api/v1"
	v1alpha1 "github.com/modelgen/modelgen/examples/payments/api/v1alpha1"
	"github.com/modelgen/modelgen/examples/payments/controller"
	"github.com/modelgen/modelgen/examples/payments/gateway"
	"github.com/modelgen/modelgen/examples/payments/migration"
	"github.com/modelgen/modelgen/examples/payments/tenantview"
	"github.com/modelgen/modelgen/rbac"
)

// Name is the operator's name: its field manager, event source and the
// default Lease.
const Name = "payments-operator"

// CRDName is the name of the PaymentOrder CRD.
const CRDName = "paymentorders.payments.example.com"

// Options are the operator's settings; BindFlags makes them flags.
type Options struct {
	MetricsAddr, ProbeAddr, TenantViewAddr string
	// Namespace, if set, is the only namespace watched (a namespaced
	// install with a Role instead of a ClusterRole).
	Namespace string

	LeaderElection                            bool
	LeaderElectionID, LeaderElectionNS        string
	LeaseDuration, RenewDeadline, RetryPeriod time.Duration

	GatewayTimeout time.Duration
	Gateway        gateway.Config
	Controller     controller.Options
	// TenantPolicy is a JSON rbac policy file; empty keeps the access
	// tags' defaults.
	TenantPolicy string

	// Webhook serves the generated validating webhooks of PaymentOrder, of
	// both versions (zz_generated.webhook.go; config/webhook points the API
	// server at them), and the generated conversion webhook between v1alpha1
	// and v1 (/convert, zz_generated.conversion.go; the CRD patch
	// config/crd/patches/webhook_in_paymentorders.yaml points the API server
	// at it) on WebhookHost:WebhookPort with tls.crt and tls.key from
	// WebhookCertDir (controller-runtime's default directory when empty).
	Webhook        bool
	WebhookHost    string
	WebhookPort    int
	WebhookCertDir string

	// MigrateStorage rewrites every stored PaymentOrder through the storage
	// version (v1) once the operator leads, then trims the CRD's
	// status.storedVersions (package migration); run it after the storage
	// version changed, before v1alpha1 stops being served.
	MigrateStorage bool

	// OnTenantViewListening, if set, gets the tenant view's bound address.
	OnTenantViewListening func(net.Addr)
	// SkipNameValidation lets one process run several managers (tests).
	SkipNameValidation bool
}

// Defaults returns the options of an operator started without flags.
func Defaults() Options {
	return Options{
		MetricsAddr: ":8080", ProbeAddr: ":8081", TenantViewAddr: ":8082",
		LeaderElectionID: Name, LeaseDuration: 15 * time.Second, RenewDeadline: 10 * time.Second, RetryPeriod: 2 * time.Second,
		GatewayTimeout: 5 * time.Second, WebhookPort: 9443,
		Controller: controller.Options{RetryBaseDelay: 100 * time.Millisecond, RetryMaxDelay: 5 * time.Minute, MaxConcurrentReconciles: 2},
	}
}

// BindFlags registers the options as flags of fs, with o's values as defaults.
func (o *Options) BindFlags(fs *flag.FlagSet) {
	fs.StringVar(&o.MetricsAddr, "metrics-bind-address", o.MetricsAddr, `address of the Prometheus metrics endpoint ("0" turns it off)`)
	fs.StringVar(&o.ProbeAddr, "health-probe-bind-address", o.ProbeAddr, "address of /healthz and /readyz")
	fs.StringVar(&o.TenantViewAddr, "tenant-view-bind-address", o.TenantViewAddr, `address of the tenant view `+tenantview.Path+` ("0" turns it off)`)
	fs.StringVar(&o.Namespace, "namespace", o.Namespace, "watch only this namespace (default: all)")
	fs.BoolVar(&o.LeaderElection, "leader-elect", o.LeaderElection, "elect a leader through a Lease, so that only one replica reconciles")
	fs.StringVar(&o.LeaderElectionID, "leader-election-id", o.LeaderElectionID, "name of the Lease")
	fs.StringVar(&o.LeaderElectionNS, "leader-election-namespace", o.LeaderElectionNS, "namespace of the Lease (default: the pod's namespace)")
	fs.DurationVar(&o.LeaseDuration, "leader-election-lease-duration", o.LeaseDuration, "how long a Lease lasts without renewal")
	fs.DurationVar(&o.RenewDeadline, "leader-election-renew-deadline", o.RenewDeadline, "how long the leader tries to renew before giving up")
	fs.DurationVar(&o.RetryPeriod, "leader-election-retry-period", o.RetryPeriod, "how often candidates try to acquire the Lease")
	fs.DurationVar(&o.GatewayTimeout, "gateway-timeout", o.GatewayTimeout, "deadline of every gateway call")
	fs.DurationVar(&o.Gateway.Latency, "gateway-latency", o.Gateway.Latency, "simulated gateway: latency of every call")
	fs.Float64Var(&o.Gateway.FailureRate, "gateway-failure-rate", o.Gateway.FailureRate, "simulated gateway: share of calls that fail transiently, in [0,1]")
	fs.Float64Var(&o.Gateway.SettlementDeclineRate, "gateway-settlement-decline-rate", o.Gateway.SettlementDeclineRate, "simulated gateway: share of settlements bounced, in [0,1]")
	fs.Int64Var(&o.Gateway.DeclineAbove, "gateway-decline-above", o.Gateway.DeclineAbove, "simulated gateway: decline authorizations above this many minor units (0: never)")
	fs.Uint64Var(&o.Gateway.Seed, "gateway-seed", o.Gateway.Seed, "simulated gateway: seed of its failures")
	fs.DurationVar(&o.Controller.RetryBaseDelay, "retry-base-delay", o.Controller.RetryBaseDelay, "first backoff after an error; it doubles on each error of the same order")
	fs.DurationVar(&o.Controller.RetryMaxDelay, "retry-max-delay", o.Controller.RetryMaxDelay, "longest backoff")
	fs.IntVar(&o.Controller.MaxConcurrentReconciles, "max-concurrent-reconciles", o.Controller.MaxConcurrentReconciles, "orders reconciled at once")
	fs.StringVar(&o.TenantPolicy, "tenant-policy", o.TenantPolicy, "JSON rbac policy of per-tenant overrides for the tenant view")
	fs.BoolVar(&o.Webhook, "webhook", o.Webhook, "serve the validating webhooks of config/webhook (the validate tags no CRD schema can carry, such as iso4217) and the conversion webhook between v1alpha1 and v1 (/convert)")
	fs.BoolVar(&o.MigrateStorage, "migrate-storage", o.MigrateStorage, "rewrite every stored PaymentOrder in the storage version (v1), then trim the CRD's status.storedVersions; needs the conversion webhook served (--webhook, or by another replica)")
	fs.IntVar(&o.WebhookPort, "webhook-port", o.WebhookPort, "port of the validating webhook")
	fs.StringVar(&o.WebhookCertDir, "webhook-cert-dir", o.WebhookCertDir, "directory of the webhook's tls.crt and tls.key (default: controller-runtime's)")
}

// Validate checks the options that flags cannot.
func (o *Options) Validate() error {
	var errs []error
	for name, r := range map[string]float64{"gateway-failure-rate": o.Gateway.FailureRate, "gateway-settlement-decline-rate": o.Gateway.SettlementDeclineRate} {
		if r < 0 || r > 1 {
			errs = append(errs, fmt.Errorf("--%s=%v: want a share in [0,1]", name, r))
		}
	}
	if o.GatewayTimeout <= 0 {
		errs = append(errs, fmt.Errorf("--gateway-timeout=%v: want a positive duration", o.GatewayTimeout))
	}
	if o.LeaderElection && o.RenewDeadline >= o.LeaseDuration {
		errs = append(errs, fmt.Errorf("--leader-election-renew-deadline=%v must be shorter than the lease duration %v", o.RenewDeadline, o.LeaseDuration))
	}
	return errors.Join(errs...)
}

// Scheme holds the client-go types and the PaymentOrder API in both of its
// versions (v1 stored and read by the reconciler, v1alpha1 served), and
// the CRD's own type (the storage migration trims its stored versions).
func Scheme() (*runtime.Scheme, error) {
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{clientgoscheme.AddToScheme, apiext.AddToScheme, v1alpha1.AddToScheme, v1.AddToScheme} {
		if err := add(s); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// NewManager builds the manager for cfg.
func NewManager(cfg *rest.Config, o Options) (ctrl.Manager, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	scheme, err := Scheme()
	if err != nil {
		return nil, err
	}
	lease, renew, retry := o.LeaseDuration, o.RenewDeadline, o.RetryPeriod
	var watch cache.Options
	if o.Namespace != "" {
		watch.DefaultNamespaces = map[string]cache.Config{o.Namespace: {}}
	}
	var hooks webhook.Server
	if o.Webhook {
		hooks = webhook.NewServer(webhook.Options{Host: o.WebhookHost, Port: o.WebhookPort, CertDir: o.WebhookCertDir})
	}
	return ctrl.NewManager(cfg, ctrl.Options{
		WebhookServer:                 hooks,
		Scheme:                        scheme,
		Cache:                         watch,
		Metrics:                       metricsserver.Options{BindAddress: o.MetricsAddr},
		HealthProbeBindAddress:        o.ProbeAddr,
		LeaderElection:                o.LeaderElection,
		LeaderElectionID:              o.LeaderElectionID,
		LeaderElectionNamespace:       o.LeaderElectionNS,
		LeaderElectionReleaseOnCancel: true,
		LeaseDuration:                 &lease,
		RenewDeadline:                 &renew,
		RetryPeriod:                   &retry,
	})
}

// Setup registers everything the operator runs with mgr: the tenant index,
// the reconciler (talking to gw), the tenant view and the probes. It
// returns the reconciler.
func Setup(mgr ctrl.Manager, o Options, gw gateway.Gateway) (*controller.Reconciler, error) {
	if err := tenantview.IndexTenant(context.Background(), mgr.GetFieldIndexer()); err != nil {
		return nil, fmt.Errorf("indexing %s: %w", tenantview.TenantField, err)
	}
	r := &controller.Reconciler{
		Client: mgr.GetClient(), APIReader: mgr.GetAPIReader(), Gateway: gw,
		Recorder: mgr.GetEventRecorder(Name), GatewayTimeout: o.GatewayTimeout,
	}
	copts := o.Controller
	copts.SkipNameValidation = o.SkipNameValidation
	if err := r.SetupWithManager(mgr, copts); err != nil {
		return nil, fmt.Errorf("registering the controller: %w", err)
	}
	guard, err := tenantGuard(o.TenantPolicy)
	if err != nil {
		return nil, err
	}
	view := &tenantview.Server{
		Addr:      o.TenantViewAddr,
		Handler:   &tenantview.Handler{Reader: mgr.GetCache(), Guard: guard, Auth: tenantview.HeaderAuthenticator{}},
		Listening: o.OnTenantViewListening,
	}
	if err := mgr.Add(view); err != nil {
		return nil, err
	}
	if o.Webhook {
		// the application's validator: register custom validations on it
		if err := (&v1alpha1.PaymentOrderWebhook{Validate: validator.New()}).SetupWebhookWithManager(mgr); err != nil {
			return nil, fmt.Errorf("registering the webhook: %w", err)
		}
		if err := (&v1.PaymentOrderWebhook{Validate: validator.New()}).SetupWebhookWithManager(mgr); err != nil {
			return nil, fmt.Errorf("registering the webhook of v1: %w", err)
		}
		if err := v1.SetupConversionWebhookWithManager(mgr); err != nil {
			return nil, fmt.Errorf("registering the conversion webhook: %w", err)
		}
		if err := mgr.AddReadyzCheck("webhook", mgr.GetWebhookServer().StartedChecker()); err != nil {
			return nil, err
		}
	}
	if o.MigrateStorage {
		// a client without the informer cache: the migration lists every
		// object once, as unstructured
		c, err := client.New(mgr.GetConfig(), client.Options{Scheme: mgr.GetScheme(), Mapper: mgr.GetRESTMapper()})
		if err != nil {
			return nil, err
		}
		if err := mgr.Add(&migration.Runnable{Client: c, CRD: CRDName}); err != nil {
			return nil, err
		}
	}
	if err := mgr.AddHealthzCheck("ping", healthz.Ping); err != nil {
		return nil, err
	}
	if err := mgr.AddReadyzCheck("informers", cacheSynced(mgr)); err != nil {
		return nil, err
	}
	return r, nil
}

// cacheSynced is ready once the informer cache, which the reconciler and
// the tenant view read, has synced.
func cacheSynced(mgr ctrl.Manager) healthz.Checker {
	return func(req *http.Request) error {
		ctx, cancel := context.WithTimeout(req.Context(), time.Second)
		defer cancel()
		if !mgr.GetCache().WaitForCacheSync(ctx) {
			return errors.New("informer cache not synced")
		}
		return nil
	}
}

func tenantGuard(file string) (*rbac.Guard[v1alpha1.PaymentOrder], error) {
	table := v1alpha1.PaymentOrderAccess.Table()
	var p *rbac.Policy
	var err error
	if file == "" {
		p, err = rbac.NewPolicy(rbac.PolicyDoc{}, table)
	} else {
		var data []byte
		if data, err = os.ReadFile(file); err == nil {
			p, err = rbac.ParsePolicy(data, table)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("tenant policy %s: %w", file, err)
	}
	return rbac.NewGuard(rbac.NewStore(p), v1alpha1.PaymentOrderAccess), nil
}

// Run builds, sets up and runs the operator until ctx ends.
func Run(ctx context.Context, cfg *rest.Config, o Options) error {
	mgr, err := NewManager(cfg, o)
	if err != nil {
		return err
	}
	if _, err := Setup(mgr, o, gateway.NewSimulated(o.Gateway)); err != nil {
		return err
	}
	return mgr.Start(ctx)
}
