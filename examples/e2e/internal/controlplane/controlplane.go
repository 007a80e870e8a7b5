// Package controlplane starts the real kube-apiserver and etcd that the
// envtest suites run against (KUBEBUILDER_ASSETS, from hack/controlplane.sh),
// with the examples' generated CRDs installed, and with limits that hold on
// 2 busy cores.
//
// PaymentOrder is served in two versions (v1 stored, v1alpha1 served), so
// its CRD converts through a webhook: Start serves the generated conversion
// (controller-runtime's /convert over the scheme of both versions, what the
// operator's v1.SetupConversionWebhookWithManager serves) from the test
// process, and envtest points the CRD's spec.conversion at it, as kustomize
// does with config/crd/patches/webhook_in_paymentorders.yaml in a cluster.
package controlplane

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"time"

	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
	"sigs.k8s.io/controller-runtime/pkg/webhook/conversion"

	paymentsv1 "github.com/modelgen/modelgen/examples/payments/api/v1"
	paymentsv1alpha1 "github.com/modelgen/modelgen/examples/payments/api/v1alpha1"
)

// Env is the running control plane and the conversion webhook it calls.
type Env struct {
	*envtest.Environment
	stop func() error
}

// Stop stops the conversion webhook, then the control plane.
func (e *Env) Stop() error {
	return errors.Join(e.stop(), e.Environment.Stop())
}

// ConversionScheme holds the versions of the kinds whose CRDs convert
// through the webhook Start serves.
func ConversionScheme() (*apiruntime.Scheme, error) {
	s := apiruntime.NewScheme()
	for _, add := range []func(*apiruntime.Scheme) error{paymentsv1.AddToScheme, paymentsv1alpha1.AddToScheme} {
		if err := add(s); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// Start starts the control plane with every CRD under examples/config/crd/bases
// plus extra ones, and serves the conversion webhook of the kinds of
// ConversionScheme; stop both with env.Stop.
func Start(extra ...*apiext.CustomResourceDefinition) (*Env, *rest.Config, error) {
	if os.Getenv("KUBEBUILDER_ASSETS") == "" {
		return nil, nil, errors.New("KUBEBUILDER_ASSETS is not set: run export KUBEBUILDER_ASSETS=$(hack/controlplane.sh)")
	}
	scheme, err := ConversionScheme()
	if err != nil {
		return nil, nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, nil, err
	}
	_, self, _, _ := runtime.Caller(0)
	env := &envtest.Environment{
		CRDDirectoryPaths:     []string{filepath.Join(filepath.Dir(self), "..", "..", "..", "config", "crd", "bases")},
		CRDs:                  extra,
		ErrorIfCRDPathMissing: true,
		// envtest gives the CRDs of the scheme's convertible kinds a
		// spec.conversion calling https://127.0.0.1:<port>/convert
		Scheme:                   scheme,
		WebhookInstallOptions:    envtest.WebhookInstallOptions{LocalServingHost: "127.0.0.1", LocalServingPort: port},
		ControlPlaneStartTimeout: 2 * time.Minute,
		ControlPlaneStopTimeout:  time.Minute,
		CRDInstallOptions:        envtest.CRDInstallOptions{MaxTime: 2 * time.Minute},
	}
	cfg, err := env.Start()
	if err != nil {
		return nil, nil, err
	}
	stop, err := serveConversion(scheme, env.WebhookInstallOptions)
	if err != nil {
		return nil, nil, errors.Join(err, env.Stop())
	}
	return &Env{Environment: env, stop: stop}, cfg, nil
}

// serveConversion serves /convert with the envtest serving certificate
// until stop is called; it returns once the server accepts connections.
func serveConversion(scheme *apiruntime.Scheme, o envtest.WebhookInstallOptions) (stop func() error, err error) {
	srv := webhook.NewServer(webhook.Options{Host: o.LocalServingHost, Port: o.LocalServingPort, CertDir: o.LocalServingCertDir})
	srv.Register("/convert", conversion.NewWebhookHandler(scheme, conversion.NewRegistry()))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Start(ctx) }()
	stop = func() error { cancel(); return <-done }
	started := srv.StartedChecker()
	deadline := time.Now().Add(time.Minute)
	for {
		req, _ := http.NewRequest(http.MethodGet, "/", nil)
		if err = started(req); err == nil {
			return stop, nil
		}
		select {
		case err := <-done:
			cancel()
			return nil, fmt.Errorf("serving the conversion webhook: %w", err)
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return nil, errors.Join(fmt.Errorf("the conversion webhook did not start: %w", err), stop())
		}
	}
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	_, p, _ := net.SplitHostPort(l.Addr().String())
	return strconv.Atoi(p)
}
