//go:build envtest

package payments_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	paymentsv1 "github.com/modelgen/modelgen/examples/payments/api/v1"
	paymentsv1alpha1 "github.com/modelgen/modelgen/examples/payments/api/v1alpha1"
	"github.com/modelgen/modelgen/examples/payments/gateway"
	"github.com/modelgen/modelgen/examples/payments/migration"
	"github.com/modelgen/modelgen/examples/payments/operator"
	"github.com/modelgen/modelgen/internal/testkit"
)

func alphaOrder(ns, name string, amount float64, currency string) *paymentsv1alpha1.PaymentOrder {
	return &paymentsv1alpha1.PaymentOrder{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Labels: map[string]string{"team": "a"}},
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
	data, err := os.ReadFile(filepath.Join("..", "..", "config", "crd", "patches", "webhook_in_paymentorders.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var patch apiext.CustomResourceDefinition
	if err := yaml.Unmarshal(data, &patch); err != nil {
		t.Fatal(err)
	}
	conv := patch.Spec.Conversion
	if patch.Name != operator.CRDName || conv == nil || conv.Strategy != apiext.WebhookConverter || conv.Webhook == nil || conv.Webhook.ClientConfig == nil ||
		conv.Webhook.ClientConfig.Service == nil || conv.Webhook.ClientConfig.Service.Name != "payments-operator" || conv.Webhook.ClientConfig.Service.Path == nil || *conv.Webhook.ClientConfig.Service.Path != "/convert" ||
		patch.Annotations["conversion.modelgen.io/versions"] != "v1,v1alpha1" {
		t.Fatalf("the generated patch is not the conversion webhook of %s:\n%s", operator.CRDName, data)
	}
	var crd apiext.CustomResourceDefinition
	if err := k8s.Get(context.Background(), client.ObjectKey{Name: operator.CRDName}, &crd); err != nil {
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
	c := k8s
	ctx := context.Background()
	ns := namespace(t)
	alpha := alphaOrder(ns, "conv-1", 12.5, "EUR")
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
	// the amount stays immutable through each version
	v1.Spec.Amount.Units = 1300
	if err := c.Update(ctx, &v1); err == nil || !strings.Contains(err.Error(), "amount is immutable") {
		t.Errorf("changing the amount through v1: want amount is immutable, got %v", err)
	}
	back = paymentsv1alpha1.PaymentOrder{}
	if err := c.Get(ctx, key, &back); err != nil {
		t.Fatal(err)
	}
	back.Spec.Amount = 13
	if err := c.Update(ctx, &back); err == nil || !strings.Contains(err.Error(), "amount is immutable") {
		t.Errorf("changing the amount through v1alpha1: want amount is immutable, got %v", err)
	}

	// a conversion that fails is the server's error to the client
	bad := alphaOrder(ns, "conv-bad", 12.345, "EUR")
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
// operator started with --migrate-storage (package migration) rewriting
// every stored order and trimming status.storedVersions to v1, then
// v1alpha1 no longer served and removed from the CRD; the orders keep every
// field, and are read with v1alpha1 gone (which an order still stored as
// v1alpha1 could not be). Migrate run again has nothing to do.
func TestPaymentOrderStorageMigration(t *testing.T) {
	c := k8s
	ctx := context.Background()
	crdObj := func() *apiext.CustomResourceDefinition {
		t.Helper()
		var crd apiext.CustomResourceDefinition
		if err := c.Get(ctx, client.ObjectKey{Name: operator.CRDName}, &crd); err != nil {
			t.Fatal(err)
		}
		return &crd
	}
	changeCRD := func(what string, change func(*apiext.CustomResourceDefinition)) {
		t.Helper()
		testkit.EventuallyNil(t, what, func() error {
			var crd apiext.CustomResourceDefinition
			if err := c.Get(ctx, client.ObjectKey{Name: operator.CRDName}, &crd); err != nil {
				return err
			}
			change(&crd)
			return c.Update(ctx, &crd)
		})
	}
	setVersions := func(storage string, alphaServed bool) {
		t.Helper()
		changeCRD("the CRD's versions to change", func(crd *apiext.CustomResourceDefinition) {
			for i := range crd.Spec.Versions {
				v := &crd.Spec.Versions[i]
				v.Storage = v.Name == storage
				if v.Name == "v1alpha1" {
					v.Served = alphaServed
				}
			}
		})
	}
	setVersions("v1alpha1", true)
	t.Cleanup(func() { setVersions("v1", true) })

	// orders in a namespace no operator watches: only the migration
	// touches them
	ns := namespace(t)
	names := []string{"mig-1", "mig-2", "mig-3"}
	for i, name := range names {
		o := alphaOrder(ns, name, float64(100+i)+0.25, "EUR")
		if err := c.Create(ctx, o); err != nil {
			t.Fatalf("creating %s through v1alpha1 (stored as v1alpha1): %v", name, err)
		}
	}
	if got := crdObj().Status.StoredVersions; !slices.Contains(got, "v1alpha1") {
		t.Fatalf("storedVersions %v: the orders were stored as v1alpha1", got)
	}

	// the storage version moves to v1; the operator rewrites the stored
	// orders and trims storedVersions
	setVersions("v1", true)
	o := testOptions(namespace(t))
	o.MigrateStorage = true
	startOperator(t, o, gateway.NewSimulated(gateway.Config{}))
	testkit.Eventually(t, "the operator to trim storedVersions to v1", func() (bool, string) {
		got := crdObj().Status.StoredVersions
		return slices.Equal(got, []string{"v1"}), strings.Join(got, ",")
	})
	// a second run has nothing to do
	if res, err := migration.Migrate(ctx, c, operator.CRDName); err != nil || res.Storage != "v1" || res.Rewritten != 0 || len(res.Trimmed) != 0 {
		t.Errorf("migrating again: %+v, %v", res, err)
	}

	// v1alpha1 is no longer served; the orders are whole through v1
	setVersions("v1", false)
	for i, name := range names {
		var v1 paymentsv1.PaymentOrder
		if err := c.Get(ctx, client.ObjectKey{Name: name, Namespace: ns}, &v1); err != nil {
			t.Fatal(err)
		}
		if v1.Spec.Amount != (paymentsv1.Money{Units: int32(10025 + 100*i), Currency: "EUR"}) || v1.Spec.Description != "rent" || v1.Labels["team"] != "a" {
			t.Errorf("%s after the migration through v1: %+v", name, v1.Spec)
		}
	}
	testkit.Eventually(t, "v1alpha1 to be no longer served", func() (bool, string) {
		err := c.Get(ctx, client.ObjectKey{Name: names[0], Namespace: ns}, &paymentsv1alpha1.PaymentOrder{})
		return err != nil, "still served"
	})

	// v1alpha1 is removed from the CRD (the server allows it once
	// storedVersions no longer names it); an order still stored as v1alpha1
	// could no longer be read at all
	var alpha apiext.CustomResourceDefinitionVersion
	changeCRD("v1alpha1 to be removed from the CRD", func(crd *apiext.CustomResourceDefinition) {
		crd.Spec.Versions = slices.DeleteFunc(crd.Spec.Versions, func(v apiext.CustomResourceDefinitionVersion) bool {
			if v.Name == "v1alpha1" {
				alpha = v
			}
			return v.Name == "v1alpha1"
		})
	})
	t.Cleanup(func() {
		changeCRD("v1alpha1 to be back in the CRD", func(crd *apiext.CustomResourceDefinition) {
			alpha.Served = true
			crd.Spec.Versions = append(crd.Spec.Versions, alpha)
		})
	})
	for _, name := range names {
		testkit.EventuallyNil(t, name+" to be read through v1 with v1alpha1 gone", func() error {
			return c.Get(ctx, client.ObjectKey{Name: name, Namespace: ns}, &paymentsv1.PaymentOrder{})
		})
	}
}
