//go:build envtest

package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"strings"
	"testing"
	"time"

	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
	"sigs.k8s.io/yaml"

	widgetv1 "github.com/modelgen/modelgen/examples/e2e/conversion/v1"
	widgetv1alpha1 "github.com/modelgen/modelgen/examples/e2e/conversion/v1alpha1"
	"github.com/modelgen/modelgen/internal/testkit"
)

// serveConversion serves controller-runtime's /convert from the test
// process (the hub package's generated SetupConversionWebhookWithManager,
// as an operator calls it) and gives the CRD the spec.conversion of its
// generated patch (config/crd/patches/webhook_in_<plural>.yaml), the
// service reference replaced by the test server's URL as envtest does. It
// returns a client of both versions.
func serveConversion(t *testing.T, plural, group string, setup func(ctrl.Manager) error, adds ...func(*runtime.Scheme) error) client.Client {
	t.Helper()
	crdName := plural + "." + group
	_, self, _, _ := goruntime.Caller(0)
	data, err := os.ReadFile(filepath.Join(filepath.Dir(self), "..", "config", "crd", "patches", "webhook_in_"+plural+".yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var patch apiext.CustomResourceDefinition
	if err := yaml.Unmarshal(data, &patch); err != nil {
		t.Fatal(err)
	}
	conv := patch.Spec.Conversion
	if patch.Name != crdName || conv == nil || conv.Strategy != apiext.WebhookConverter || conv.Webhook == nil || conv.Webhook.ClientConfig == nil ||
		conv.Webhook.ClientConfig.Service == nil || conv.Webhook.ClientConfig.Service.Path == nil || *conv.Webhook.ClientConfig.Service.Path != "/convert" ||
		!slices.Equal(conv.Webhook.ConversionReviewVersions, []string{"v1"}) {
		t.Fatalf("the generated patch is not the conversion webhook of %s:\n%s", crdName, data)
	}
	ctx := context.Background()
	scheme := runtime.NewScheme()
	for _, add := range append(adds, apiext.AddToScheme) {
		if err := add(scheme); err != nil {
			t.Fatal(err)
		}
	}
	opts := &envtest.WebhookInstallOptions{MaxTime: time.Minute, PollInterval: 100 * time.Millisecond}
	if err := opts.Install(restConfig); err != nil {
		t.Fatalf("preparing the webhook server: %v", err)
	}
	t.Cleanup(func() { _ = opts.Cleanup() })
	mgr, err := ctrl.NewManager(restConfig, ctrl.Options{
		Scheme: scheme, Metrics: metricsserver.Options{BindAddress: "0"}, HealthProbeBindAddress: "0",
		WebhookServer: webhook.NewServer(webhook.Options{Host: opts.LocalServingHost, Port: opts.LocalServingPort, CertDir: opts.LocalServingCertDir}),
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := setup(mgr); err != nil {
		t.Fatal(err)
	}
	mctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- mgr.Start(mctx) }()
	c, err := client.New(restConfig, client.Options{Scheme: scheme})
	if err != nil {
		t.Fatal(err)
	}
	var crd apiext.CustomResourceDefinition
	if err := c.Get(ctx, client.ObjectKey{Name: crdName}, &crd); err != nil {
		t.Fatal(err)
	}
	before := crd.Spec.Conversion.DeepCopy()
	url := fmt.Sprintf("https://%s:%d%s", opts.LocalServingHost, opts.LocalServingPort, *conv.Webhook.ClientConfig.Service.Path)
	conv.Webhook.ClientConfig = &apiext.WebhookClientConfig{URL: &url, CABundle: opts.LocalServingCAData}
	crd.Spec.Conversion = conv
	if err := c.Update(ctx, &crd); err != nil {
		t.Fatalf("wiring the CRD's conversion webhook: %v", err)
	}
	t.Cleanup(func() {
		var crd apiext.CustomResourceDefinition
		if err := c.Get(context.Background(), client.ObjectKey{Name: crdName}, &crd); err == nil {
			crd.Spec.Conversion = before
			if err := c.Update(context.Background(), &crd); err != nil {
				t.Errorf("unwiring the conversion webhook: %v", err)
			}
		}
		cancel()
		if err := <-done; err != nil {
			t.Errorf("manager: %v", err)
		}
	})
	return c
}

// TestWidgetConversion: on a real kube-apiserver, with the generated
// conversion served as the CRD's conversion webhook, a Widget created
// through v1alpha1 is stored as v1 (color renamed colour, note kept in the
// conversion.modelgen.io/v1alpha1 annotation), read back through v1alpha1
// whole, updated through v1 (tier, a part's serial: fields v1alpha1 lacks)
// and through v1alpha1, and each version still reads what the other wrote.
func TestWidgetConversion(t *testing.T) {
	c := serveConversion(t, "widgets", "conversion.e2e.modelgen.dev", widgetv1.SetupConversionWebhookWithManager, widgetv1.AddToScheme, widgetv1alpha1.AddToScheme)
	ctx := context.Background()
	alpha := &widgetv1alpha1.Widget{
		ObjectMeta: metav1.ObjectMeta{Name: "w1", Namespace: "default", Labels: map[string]string{"team": "a"}},
		Spec: widgetv1alpha1.WidgetSpec{Size: 3, Color: "red", Note: "rush", Mode: widgetv1alpha1.ModeFast,
			Parts: []widgetv1alpha1.Part{{Name: "bolt", Weight: 2}, {Name: "nut"}}, Price: "1250 EUR"},
	}
	// the webhook may take a moment to answer
	testkit.Eventually(t, "the conversion webhook to answer", func() (bool, string) {
		err := c.Create(ctx, alpha.DeepCopy(), client.DryRunAll)
		return err == nil, errString(err)
	})
	if err := c.Create(ctx, alpha); err != nil {
		t.Fatalf("creating through v1alpha1: %v", err)
	}
	t.Cleanup(func() {
		_ = c.Delete(context.Background(), &widgetv1.Widget{ObjectMeta: metav1.ObjectMeta{Name: "w1", Namespace: "default"}})
	})
	key := client.ObjectKey{Name: "w1", Namespace: "default"}

	var v1 widgetv1.Widget
	if err := c.Get(ctx, key, &v1); err != nil {
		t.Fatalf("reading through v1: %v", err)
	}
	if v1.Spec.Price == nil || *v1.Spec.Price != (widgetv1.Money{Units: 1250, Currency: "EUR"}) {
		t.Errorf("through v1 the price (the hand-written conversion) is %+v", v1.Spec.Price)
	}
	if v1.Spec.Colour != "red" || v1.Spec.Size != 3 || len(v1.Spec.Parts) != 2 || v1.Spec.Parts[0].Weight != 2 || v1.Spec.Mode != widgetv1.ModeFast || v1.Labels["team"] != "a" {
		t.Errorf("through v1: %+v", v1.Spec)
	}
	if got := v1.Annotations["conversion.modelgen.io/v1alpha1"]; got != `{"spec":{"note":"rush"}}` {
		t.Errorf("through v1 the annotation keeping v1alpha1's note is %q", got)
	}

	var back widgetv1alpha1.Widget
	if err := c.Get(ctx, key, &back); err != nil {
		t.Fatalf("reading through v1alpha1: %v", err)
	}
	if back.Spec.Note != "rush" || back.Spec.Color != "red" || back.Spec.Price != "1250 EUR" || len(back.Annotations) != 0 {
		t.Errorf("through v1alpha1 again: spec %+v, annotations %v", back.Spec, back.Annotations)
	}

	// an update through v1 of fields v1alpha1 lacks
	v1.Spec.Tier = "gold"
	v1.Spec.Parts[1].Serial = "N-7"
	if err := c.Update(ctx, &v1); err != nil {
		t.Fatalf("updating through v1: %v", err)
	}
	if err := c.Get(ctx, key, &back); err != nil {
		t.Fatal(err)
	}
	if back.Spec.Note != "rush" || !strings.Contains(back.Annotations["conversion.modelgen.io/v1"], `"tier":"gold"`) {
		t.Errorf("through v1alpha1 after the v1 update: spec %+v, annotations %v", back.Spec, back.Annotations)
	}
	// an update through v1alpha1 keeps what only v1 has
	back.Spec.Size = 4
	back.Spec.Note = "later"
	if err := c.Update(ctx, &back); err != nil {
		t.Fatalf("updating through v1alpha1: %v", err)
	}
	v1 = widgetv1.Widget{}
	if err := c.Get(ctx, key, &v1); err != nil {
		t.Fatal(err)
	}
	if v1.Spec.Size != 4 || v1.Spec.Tier != "gold" || v1.Spec.Parts[1].Serial != "N-7" || v1.Annotations["conversion.modelgen.io/v1alpha1"] != `{"spec":{"note":"later"}}` {
		t.Errorf("through v1 after the v1alpha1 update: spec %+v, annotations %v", v1.Spec, v1.Annotations)
	}
	if _, ok := v1.Annotations["conversion.modelgen.io/v1"]; ok {
		t.Errorf("the v1 object kept its own annotation: %v", v1.Annotations)
	}

	// a conversion that fails is the server's error to the client
	bad := &widgetv1alpha1.Widget{ObjectMeta: metav1.ObjectMeta{Name: "w-bad", Namespace: "default"}, Spec: widgetv1alpha1.WidgetSpec{Size: 1, Price: "lots"}}
	err := c.Create(ctx, bad)
	if err == nil {
		_ = c.Delete(ctx, bad)
	}
	if err == nil || !strings.Contains(err.Error(), `spec.price \"lots\" is not \"<units> <currency>\"`) && !strings.Contains(err.Error(), `spec.price "lots" is not "<units> <currency>"`) {
		t.Errorf("creating a widget whose price does not convert: want the conversion's error from the server, got %v", err)
	}
}

// TestWidgetStorageMigration walks docs/conversion.md's migration on a real
// kube-apiserver, with the generated conversion served: objects stored as
// v1alpha1, the storage version switched to v1, every object rewritten
// (read and written back through v1), status.storedVersions trimmed to v1,
// v1alpha1 no longer served; the objects keep every field.
func TestWidgetStorageMigration(t *testing.T) {
	const crdName = "widgets.conversion.e2e.modelgen.dev"
	c := serveConversion(t, "widgets", "conversion.e2e.modelgen.dev", widgetv1.SetupConversionWebhookWithManager, widgetv1.AddToScheme, widgetv1alpha1.AddToScheme)
	ctx := context.Background()
	setVersions := func(storage string, alphaServed bool) {
		t.Helper()
		testkit.Eventually(t, "the CRD's versions to change", func() (bool, string) {
			var crd apiext.CustomResourceDefinition
			if err := c.Get(ctx, client.ObjectKey{Name: crdName}, &crd); err != nil {
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
	setVersions("v1alpha1", true)
	t.Cleanup(func() { setVersions("v1", true) })

	key := client.ObjectKey{Name: "m1", Namespace: "default"}
	alpha := &widgetv1alpha1.Widget{ObjectMeta: metav1.ObjectMeta{Name: key.Name, Namespace: key.Namespace},
		Spec: widgetv1alpha1.WidgetSpec{Size: 2, Color: "blue", Note: "keep me", Price: "99 USD"}}
	testkit.Eventually(t, "the conversion webhook to answer", func() (bool, string) {
		err := c.Create(ctx, alpha.DeepCopy(), client.DryRunAll)
		return err == nil, errString(err)
	})
	if err := c.Create(ctx, alpha); err != nil {
		t.Fatalf("creating through v1alpha1 (stored as v1alpha1): %v", err)
	}
	t.Cleanup(func() {
		_ = c.Delete(context.Background(), &widgetv1.Widget{ObjectMeta: metav1.ObjectMeta{Name: key.Name, Namespace: key.Namespace}})
	})

	// the storage version moves to v1; the stored objects are rewritten
	setVersions("v1", true)
	var list widgetv1.WidgetList
	if err := c.List(ctx, &list, client.InNamespace("default")); err != nil {
		t.Fatal(err)
	}
	for i := range list.Items {
		if err := c.Update(ctx, &list.Items[i]); err != nil {
			t.Fatalf("rewriting %s through v1: %v", list.Items[i].Name, err)
		}
	}
	// status.storedVersions is trimmed to v1
	var crd apiext.CustomResourceDefinition
	if err := c.Get(ctx, client.ObjectKey{Name: crdName}, &crd); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(crd.Status.StoredVersions, "v1alpha1") {
		t.Errorf("storedVersions %v: the object was stored as v1alpha1", crd.Status.StoredVersions)
	}
	crd.Status.StoredVersions = []string{"v1"}
	if err := c.Status().Update(ctx, &crd); err != nil {
		t.Fatalf("trimming storedVersions: %v", err)
	}
	// v1alpha1 is no longer served; the object is whole through v1
	setVersions("v1", false)
	var v1 widgetv1.Widget
	if err := c.Get(ctx, key, &v1); err != nil {
		t.Fatal(err)
	}
	if v1.Spec.Colour != "blue" || v1.Spec.Price == nil || *v1.Spec.Price != (widgetv1.Money{Units: 99, Currency: "USD"}) || v1.Annotations["conversion.modelgen.io/v1alpha1"] != `{"spec":{"note":"keep me"}}` {
		t.Errorf("after the migration through v1: spec %+v, annotations %v", v1.Spec, v1.Annotations)
	}
	testkit.Eventually(t, "v1alpha1 to be no longer served", func() (bool, string) {
		err := c.Get(ctx, key, &widgetv1alpha1.Widget{})
		return err != nil, "still served"
	})
	if err := c.Get(ctx, client.ObjectKey{Name: crdName}, &crd); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(crd.Status.StoredVersions, []string{"v1"}) {
		t.Errorf("storedVersions after the migration: %v", crd.Status.StoredVersions)
	}
}
