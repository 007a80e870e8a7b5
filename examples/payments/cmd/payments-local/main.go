// Command payments-local runs the PaymentOrder operator on this machine, in
// one command: it starts a real kube-apiserver and etcd (the ones
// hack/controlplane.sh builds, found through KUBEBUILDER_ASSETS), installs
// the generated CRD, starts the operator (serving the conversion webhook the
// CRD calls: v1 is stored, v1alpha1 served), applies the samples of
// examples/payments/config/samples and waits until each is done. It prints
// the orders and stops, or, with -keep, keeps running until interrupted,
// with a kubeconfig written for kubectl.
//
//	cd examples && KUBEBUILDER_ASSETS=$(../hack/controlplane.sh) go run ./payments/cmd/payments-local
package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"syscall"
	"text/tabwriter"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	v1alpha1 "github.com/modelgen/modelgen/examples/payments/api/v1alpha1"
	"github.com/modelgen/modelgen/examples/payments/operator"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "payments-local:", err)
		os.Exit(1)
	}
}

func run() error {
	_, self, _, _ := runtime.Caller(0)
	examples := filepath.Join(filepath.Dir(self), "..", "..", "..")
	samples := flag.String("samples", filepath.Join(examples, "payments", "config", "samples"), "directory of PaymentOrders to apply")
	crds := flag.String("crds", filepath.Join(examples, "config", "crd", "bases"), "directory of the generated CRDs")
	kubeconfig := flag.String("kubeconfig-out", "payments-local.kubeconfig", "where to write a kubeconfig for kubectl")
	keep := flag.Bool("keep", false, "keep running after the samples are done, until interrupted")
	timeout := flag.Duration("timeout", 2*time.Minute, "how long to wait for the samples")
	o := operator.Defaults()
	o.BindFlags(flag.CommandLine)
	zo := zap.Options{}
	zo.BindFlags(flag.CommandLine)
	flag.Parse()
	ctrl.SetLogger(zap.New(zap.UseFlagOptions(&zo)))

	if os.Getenv("KUBEBUILDER_ASSETS") == "" {
		return errors.New("KUBEBUILDER_ASSETS is not set: run it as KUBEBUILDER_ASSETS=$(hack/controlplane.sh) followed by this command")
	}
	scheme, err := operator.Scheme()
	if err != nil {
		return err
	}
	port, err := freePort()
	if err != nil {
		return err
	}
	// PaymentOrder is stored as v1 and served as v1alpha1 too: envtest
	// points the CRD's conversion at the operator's webhook server
	// (--webhook serves /convert) on a local port with its own certificate
	env := &envtest.Environment{
		CRDDirectoryPaths: []string{*crds}, ErrorIfCRDPathMissing: true, ControlPlaneStartTimeout: 2 * time.Minute,
		Scheme:                scheme,
		WebhookInstallOptions: envtest.WebhookInstallOptions{LocalServingHost: "127.0.0.1", LocalServingPort: port},
	}
	cfg, err := env.Start()
	if err != nil {
		return fmt.Errorf("starting the control plane: %w", err)
	}
	defer func() { _ = env.Stop() }()
	o.Webhook, o.WebhookHost, o.WebhookPort, o.WebhookCertDir = true, env.WebhookInstallOptions.LocalServingHost, port, env.WebhookInstallOptions.LocalServingCertDir
	user, err := env.AddUser(envtest.User{Name: "admin", Groups: []string{"system:masters"}}, nil)
	if err == nil {
		var data []byte
		if data, err = user.KubeConfig(); err == nil {
			err = os.WriteFile(*kubeconfig, data, 0o600)
		}
	}
	if err != nil {
		return fmt.Errorf("writing the kubeconfig: %w", err)
	}
	fmt.Printf("control plane at %s; kubectl --kubeconfig %s get paymentorders\n", cfg.Host, *kubeconfig)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	operatorDone := make(chan error, 1)
	go func() { operatorDone <- operator.Run(ctx, cfg, o) }()

	c, err := client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		return err
	}
	names, err := applySamples(ctx, c, *samples)
	if err != nil {
		return err
	}
	if err := waitDone(ctx, c, names, *timeout); err != nil {
		return err
	}
	if err := printOrders(ctx, c, os.Stdout); err != nil {
		return err
	}
	if *keep {
		fmt.Println("the operator keeps running; Ctrl-C stops it and the control plane")
		<-ctx.Done()
	}
	cancel()
	return <-operatorDone
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// applySamples creates every object of the YAML files in dir in the
// default namespace; it returns the names of the orders.
func applySamples(ctx context.Context, c client.Client, dir string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("no samples in %s (%v)", dir, err)
	}
	var names []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
		for {
			u := &unstructured.Unstructured{}
			if err := dec.Decode(&u.Object); errors.Is(err, io.EOF) {
				break
			} else if err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			u.SetNamespace("default")
			if err := c.Create(ctx, u); err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
			fmt.Printf("applied %s %s\n", u.GetKind(), u.GetName())
			names = append(names, u.GetName())
		}
	}
	return names, nil
}

// waitDone waits until every named order is Ready.
func waitDone(ctx context.Context, c client.Client, names []string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for _, name := range names {
		for {
			var po v1alpha1.PaymentOrder
			err := c.Get(ctx, client.ObjectKey{Namespace: "default", Name: name}, &po)
			if err == nil && isReady(&po) {
				break
			}
			if time.Now().After(deadline) {
				return fmt.Errorf("%s is not done after %v: phase %q, %v", name, timeout, po.Status.Phase, err)
			}
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(100 * time.Millisecond):
			}
		}
	}
	return nil
}

func isReady(po *v1alpha1.PaymentOrder) bool {
	for _, c := range po.Status.Conditions {
		if c.Type == v1alpha1.ConditionReady {
			return c.Status == "True" && c.ObservedGeneration == po.Generation
		}
	}
	return false
}

func printOrders(ctx context.Context, c client.Client, w io.Writer) error {
	var list v1alpha1.PaymentOrderList
	if err := c.List(ctx, &list, client.InNamespace("default")); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tAMOUNT\tCURRENCY\tPHASE\tATTEMPTS\tAUTHORIZATION\tCHARGE\tREFUND")
	for _, po := range list.Items {
		g := v1alpha1.GatewayReference{}
		if po.Status.Gateway != nil {
			g = *po.Status.Gateway
		}
		fmt.Fprintf(tw, "%s\t%.2f\t%s\t%s\t%d\t%s\t%s\t%s\n", po.Name, po.Spec.Amount, po.Spec.Currency, po.Status.Phase,
			po.Status.Attempts, g.AuthorizationID, g.ChargeID, g.RefundID)
	}
	return tw.Flush()
}
