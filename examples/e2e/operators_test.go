//go:build envtest

package e2e

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"

	payments "github.com/modelgen/modelgen/examples/payments/api/v1alpha1"
)

func newScheme(t *testing.T) *runtime.Scheme {
	t.Helper()
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{clientgoscheme.AddToScheme, payments.AddToScheme} {
		if err := add(s); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

func newClient(t *testing.T) client.Client {
	t.Helper()
	c, err := client.New(restConfig, client.Options{Scheme: newScheme(t)})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// paymentOrder is a valid PaymentOrder in default (for the ClusterRole test).
func paymentOrder(name string, amount float64) *payments.PaymentOrder {
	return &payments.PaymentOrder{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"},
		Spec: payments.PaymentOrderSpec{
			Amount: amount, Currency: "EUR", PayerID: "DE89370400440532", PayeeID: "FR14200410100505",
			TenantID: "acme", Method: "sepa",
		},
	}
}
