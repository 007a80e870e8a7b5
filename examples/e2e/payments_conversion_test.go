//go:build envtest

package e2e

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	paymentsv1 "github.com/modelgen/modelgen/examples/payments/api/v1"
	paymentsv1alpha1 "github.com/modelgen/modelgen/examples/payments/api/v1alpha1"
	"github.com/modelgen/modelgen/examples/payments/migration"
	"github.com/modelgen/modelgen/internal/testkit"
)

const paymentOrdersCRD = "paymentorders.payments.example.com"

// bothVersions is a client of PaymentOrder in v1alpha1 and v1, and of CRDs.
func bothVersions(t *testing.T) client.Client {
	t.Helper()
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{paymentsv1.AddToScheme, paymentsv1alpha1.AddToScheme, apiext.AddToScheme} {
		if err := add(s); err != nil {
			t.Fatal(err)
		}
	}
	c, err := client.New(restConfig, client.Options{Scheme: s})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func alphaOrder(name string, amount float64, currency string) *paymentsv1alpha1.PaymentOrder {
	return &paymentsv1alpha1.PaymentOrder{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{"team": "a"}},
		Spec: paymentsv1alpha1.PaymentOrderSpec{
			Amount: amount, Currency: currency, PayerID: "DE89370400440532", PayeeID: "FR14200410100505",
			TenantID: "acme", Method: "sepa", Description: "rent", Tags: []string{"monthly"},
		},
	}
}

// TestPaymentOrderConversionPatch: the generated CRD patch wires the
// conversion webhook of both versions (what the control plane of these
// tests does with envtest's own URL).
func TestPaymentOrderConversionPatch(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "config", "crd", "patches", "webhook_in_paymentorders.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var patch apiext.CustomResourceDefinition
	if err := yaml.Unmarshal(data, &patch); err != nil {
		t.Fatal(err)
	}
	conv := patch.Spec.Conversion
	if patch.Name != paymentOrdersCRD || conv == nil || conv.Strategy != apiext.WebhookConverter || conv.Webhook == nil || conv.Webhook.ClientConfig == nil ||
		conv.Webhook.ClientConfig.Service == nil || conv.Webhook.ClientConfig.Service.Name != "payments-operator" || conv.Webhook.ClientConfig.Service.Path == nil || *conv.Webhook.ClientConfig.Service.Path != "/convert" ||
		patch.Annotations["conversion.modelgen.io/versions"] != "v1,v1alpha1" {
		t.Fatalf("the generated patch is not the conversion webhook of %s:\n%s", paymentOrdersCRD, data)
	}
	var crd apiext.CustomResourceDefinition
	if err := bothVersions(t).Get(context.Background(), client.ObjectKey{Name: paymentOrdersCRD}, &crd); err != nil {
		t.Fatal(err)
	}
	if crd.Spec.Conversion == nil || crd.Spec.Conversion.Strategy != apiext.WebhookConverter {
		t.Fatalf("the control plane did not wire the conversion webhook: %+v", crd.Spec.Conversion)
	}
}

// TestPaymentOrderConversion: on a real kube-apiserver, with the generated
// conversion served as the CRD's webhook, an order created through
// v1alpha1 (amount 12.5 EUR) is stored as v1 (amount {units: 1250,
// currency: EUR}, the hand-written conversion of v1alpha1/amount.go), read
// back through v1alpha1 whole, updated through each version; each version
// reads what the other wrote. An amount the conversion refuses (12.345 EUR,
// not a whole number of cents) is the server's error to the client.
func TestPaymentOrderConversion(t *testing.T) {
	c := bothVersions(t)
	ctx := context.Background()
	alpha := alphaOrder("conv-1", 12.5, "EUR")
	if err := c.Create(ctx, alpha); err != nil {
		t.Fatalf("creating through v1alpha1: %v", err)
	}
	t.Cleanup(func() {
		_ = c.Delete(context.Background(), &paymentsv1.PaymentOrder{ObjectMeta: metav1.ObjectMeta{Name: "conv-1", Namespace: "default"}})
	})
	key := client.ObjectKeyFromObject(alpha)

	var v1 paymentsv1.PaymentOrder
	if err := c.Get(ctx, key, &v1); err != nil {
		t.Fatalf("reading through v1: %v", err)
	}
	if v1.Spec.Amount != (paymentsv1.Money{Units: 1250, Currency: "EUR"}) {
		t.Errorf("through v1 the amount (the hand-written conversion) is %+v", v1.Spec.Amount)
	}
	if v1.Spec.PayerID != "DE89370400440532" || v1.Spec.Method != "sepa" || v1.Spec.Description != "rent" || !slices.Equal(v1.Spec.Tags, []string{"monthly"}) ||
		v1.Spec.Priority != 5 || v1.Labels["team"] != "a" || len(v1.Annotations) != 0 {
		t.Errorf("through v1: spec %+v, metadata %+v", v1.Spec, v1.ObjectMeta)
	}

	var back paymentsv1alpha1.PaymentOrder
	if err := c.Get(ctx, key, &back); err != nil {
		t.Fatalf("reading through v1alpha1: %v", err)
	}
	if back.Spec.Amount != 12.5 || back.Spec.Currency != "EUR" || back.Spec.Description != "rent" || len(back.Annotations) != 0 {
		t.Errorf("through v1alpha1 again: spec %+v, annotations %v", back.Spec, back.Annotations)
	}

	// an update through v1, read through v1alpha1
	v1.Spec.Description = "rent, March"
	if err := c.Update(ctx, &v1); err != nil {
		t.Fatalf("updating through v1: %v", err)
	}
	if err := c.Get(ctx, key, &back); err != nil {
		t.Fatal(err)
	}
	if back.Spec.Description != "rent, March" || back.Spec.Amount != 12.5 {
		t.Errorf("through v1alpha1 after the v1 update: %+v", back.Spec)
	}
	// an update through v1alpha1, read through v1
	back.Spec.Priority = 2
	if err := c.Update(ctx, &back); err != nil {
		t.Fatalf("updating through v1alpha1: %v", err)
	}
	v1 = paymentsv1.PaymentOrder{}
	if err := c.Get(ctx, key, &v1); err != nil {
		t.Fatal(err)
	}
	if v1.Spec.Priority != 2 || v1.Spec.Description != "rent, March" || v1.Spec.Amount.Units != 1250 {
		t.Errorf("through v1 after the v1alpha1 update: %+v", v1.Spec)
	}
	// the amount stays immutable through v1alpha1 too (the rule of v1, on
	// the converted object)
	back = paymentsv1alpha1.PaymentOrder{}
	if err := c.Get(ctx, key, &back); err != nil {
		t.Fatal(err)
	}
	back.Spec.Amount = 13
	if err := c.Update(ctx, &back); err == nil || !strings.Contains(err.Error(), "amount is immutable") {
		t.Errorf("changing the amount through v1alpha1: want amount is immutable, got %v", err)
	}

	// a conversion that fails is the server's error to the client
	bad := alphaOrder("conv-bad", 12.345, "EUR")
	err := c.Create(ctx, bad)
	if err == nil {
		_ = c.Delete(ctx, bad)
	}
	if err == nil || !strings.Contains(err.Error(), "is not a whole number of minor units") {
		t.Errorf("creating an order whose amount does not convert: want the conversion's error from the server, got %v", err)
	}
}

// TestPaymentOrderStorageMigration walks docs/conversion.md's migration on
// a real kube-apiserver: orders stored as v1alpha1 (the storage version
// switched back for the test), the storage version moved to v1, the
// migration package's Migrate rewriting every stored order and trimming
// status.storedVersions to v1, then v1alpha1 no longer served and removed
// from the CRD; the orders keep every field, and are read with v1alpha1 gone
// (which an order still stored as v1alpha1 could not be).
func TestPaymentOrderStorageMigration(t *testing.T) {
	c := bothVersions(t)
	ctx := context.Background()
	setVersions := func(storage string, alphaServed bool) {
		t.Helper()
		testkit.Eventually(t, "the CRD's versions to change", func() (bool, string) {
			var crd apiext.CustomResourceDefinition
			if err := c.Get(ctx, client.ObjectKey{Name: paymentOrdersCRD}, &crd); err != nil {
				return false, err.Error()
			}
			for i := range crd.Spec.Versions {
				v := &crd.Spec.Versions[i]
				v.Storage = v.Name == storage
				if v.Name == "v1alpha1" {
					v.Served = alphaServed
				}
			}
			err := c.Update(ctx, &crd)
			return err == nil, errString(err)
		})
	}
	storedVersions := func() []string {
		t.Helper()
		var crd apiext.CustomResourceDefinition
		if err := c.Get(ctx, client.ObjectKey{Name: paymentOrdersCRD}, &crd); err != nil {
			t.Fatal(err)
		}
		return crd.Status.StoredVersions
	}
	setVersions("v1alpha1", true)
	t.Cleanup(func() { setVersions("v1", true) })

	names := []string{"mig-1", "mig-2", "mig-3"}
	for i, name := range names {
		o := alphaOrder(name, float64(100+i)+0.25, "EUR")
		if err := c.Create(ctx, o); err != nil {
			t.Fatalf("creating %s through v1alpha1 (stored as v1alpha1): %v", name, err)
		}
		t.Cleanup(func() {
			_ = c.Delete(context.Background(), &paymentsv1.PaymentOrder{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"}})
		})
	}
	if got := storedVersions(); !slices.Contains(got, "v1alpha1") {
		t.Fatalf("storedVersions %v: the orders were stored as v1alpha1", got)
	}

	// the storage version moves to v1; the stored orders are rewritten
	setVersions("v1", true)
	res, err := migration.Migrate(ctx, c, paymentOrdersCRD)
	if err != nil {
		t.Fatalf("migrating: %v", err)
	}
	if res.Storage != "v1" || res.Rewritten < len(names) || !slices.Contains(res.Trimmed, "v1alpha1") {
		t.Errorf("the migration: %+v", res)
	}
	if got := storedVersions(); !slices.Equal(got, []string{"v1"}) {
		t.Errorf("storedVersions after the migration: %v", got)
	}
	// a second run has nothing to do
	if res, err := migration.Migrate(ctx, c, paymentOrdersCRD); err != nil || res.Rewritten != 0 {
		t.Errorf("migrating again: %+v, %v", res, err)
	}

	// v1alpha1 is no longer served; the orders are whole through v1
	setVersions("v1", false)
	t.Cleanup(func() { setVersions("v1", true) })
	for i, name := range names {
		var v1 paymentsv1.PaymentOrder
		if err := c.Get(ctx, client.ObjectKey{Name: name, Namespace: "default"}, &v1); err != nil {
			t.Fatal(err)
		}
		if v1.Spec.Amount != (paymentsv1.Money{Units: int32(10025 + 100*i), Currency: "EUR"}) || v1.Spec.Description != "rent" || v1.Labels["team"] != "a" {
			t.Errorf("%s after the migration through v1: %+v", name, v1.Spec)
		}
	}
	testkit.Eventually(t, "v1alpha1 to be no longer served", func() (bool, string) {
		err := c.Get(ctx, client.ObjectKey{Name: names[0], Namespace: "default"}, &paymentsv1alpha1.PaymentOrder{})
		return err != nil, "still served"
	})

	// v1alpha1 is removed from the CRD (the server allows it once
	// storedVersions no longer names it); an order still stored as v1alpha1
	// could no longer be read at all
	var alphaVersion apiext.CustomResourceDefinitionVersion
	testkit.Eventually(t, "v1alpha1 to be removed from the CRD", func() (bool, string) {
		var crd apiext.CustomResourceDefinition
		if err := c.Get(ctx, client.ObjectKey{Name: paymentOrdersCRD}, &crd); err != nil {
			return false, err.Error()
		}
		crd.Spec.Versions = slices.DeleteFunc(crd.Spec.Versions, func(v apiext.CustomResourceDefinitionVersion) bool {
			if v.Name == "v1alpha1" {
				alphaVersion = v
			}
			return v.Name == "v1alpha1"
		})
		err := c.Update(ctx, &crd)
		return err == nil, errString(err)
	})
	t.Cleanup(func() {
		testkit.Eventually(t, "v1alpha1 to be back in the CRD", func() (bool, string) {
			var crd apiext.CustomResourceDefinition
			if err := c.Get(ctx, client.ObjectKey{Name: paymentOrdersCRD}, &crd); err != nil {
				return false, err.Error()
			}
			alphaVersion.Served = true
			crd.Spec.Versions = append(crd.Spec.Versions, alphaVersion)
			err := c.Update(ctx, &crd)
			return err == nil, errString(err)
		})
	})
	for _, name := range names {
		testkit.EventuallyNil(t, name+" to be read through v1 with v1alpha1 gone", func() error {
			return c.Get(ctx, client.ObjectKey{Name: name, Namespace: "default"}, &paymentsv1.PaymentOrder{})
		})
	}
}
