package webhook_test

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	"sigs.k8s.io/yaml"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/gen/internal/served"
	"github.com/modelgen/modelgen/gen/webhook"
	"github.com/modelgen/modelgen/model"

	"github.com/modelgen/modelgen/internal/testkit"
)

func load(t *testing.T) *model.Model {
	t.Helper()
	m, err := model.Load(model.Config{Patterns: []string{"./testdata/shop"}})
	if err != nil {
		t.Fatal(err)
	}
	if m.Diags.HasErrors() {
		t.Fatal(m.Diags)
	}
	return m
}

func generate(t *testing.T, m *model.Model, cfg gen.Config) ([]gen.File, model.Diagnostics) {
	t.Helper()
	configs := map[string]gen.Config{}
	for _, pk := range m.Packages {
		configs[pk.Path] = cfg
	}
	return webhook.Generator{}.Generate(&gen.Context{Model: m, Configs: configs})
}

// hooks is a package's settings with the given webhook settings.
func hooks(s served.Settings) gen.Config { return gen.Config{}.WithOwn(s) }

// files maps base names to contents.
func files(t *testing.T, fs []gen.File) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, f := range fs {
		out[filepath.Base(f.Path)] = f.Data
	}
	return out
}

const manifestFile = "shop.example.com_v1_manifests.yaml"

func configuration(t *testing.T, data []byte) *admissionv1.ValidatingWebhookConfiguration {
	t.Helper()
	c := &admissionv1.ValidatingWebhookConfiguration{}
	if err := yaml.UnmarshalStrict(data, c); err != nil {
		t.Fatalf("the manifest does not parse: %v\n%s", err, data)
	}
	return c
}

// TestAutoSelectsKindsWithRuntimeOnlyChecks: only Shop, whose fields carry
// iso4217, iso3166_1_alpha2, url and lowercase keys, gets a webhook; Plain,
// whose checks the CRD carries, does not.
func TestAutoSelectsKindsWithRuntimeOnlyChecks(t *testing.T) {
	m := load(t)
	out, diags := generate(t, m, gen.Config{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	got := files(t, out)
	if len(got) != 2 || got[webhook.FileName] == nil || got[manifestFile] == nil {
		t.Fatalf("want %s and %s, got %v", webhook.FileName, manifestFile, keys(got))
	}
	src := string(got[webhook.FileName])
	if !strings.Contains(src, "type ShopWebhook struct") || strings.Contains(src, "PlainWebhook") {
		t.Errorf("auto: want a webhook for Shop only:\n%s", src)
	}
	kinds := served.Kinds(&gen.Context{Model: m}, m.Packages[0], served.ModeAuto)
	if len(kinds) != 1 || strings.Join(kinds[0].Keywords(), " ") != "iso3166_1_alpha2 iso4217 lowercase url" {
		t.Fatalf("want Shop with its four runtime-only keywords, got %+v", kinds)
	}
}

// TestManifest checks the ValidatingWebhookConfiguration field by field.
func TestManifest(t *testing.T) {
	out, diags := generate(t, load(t), gen.Config{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	c := configuration(t, files(t, out)[manifestFile])
	if len(c.Webhooks) != 1 {
		t.Fatalf("want one webhook, got %d", len(c.Webhooks))
	}
	w := c.Webhooks[0]
	svc := w.ClientConfig.Service
	checks := []struct {
		what      string
		got, want any
	}{
		{"kind", c.Kind, "ValidatingWebhookConfiguration"},
		{"name", w.Name, "vshop-v1.shop.example.com"},
		{"failurePolicy", string(*w.FailurePolicy), "Fail"},
		{"sideEffects", string(*w.SideEffects), "None"},
		{"admissionReviewVersions", strings.Join(w.AdmissionReviewVersions, ","), "v1"},
		{"service", svc.Namespace + "/" + svc.Name, "system/webhook-service"},
		{"path", *svc.Path, "/validate-shop-example-com-v1-shop"},
		{"groups", strings.Join(w.Rules[0].APIGroups, ","), "shop.example.com"},
		{"versions", strings.Join(w.Rules[0].APIVersions, ","), "v1"},
		{"operations", len(w.Rules[0].Operations), 2},
		{"resources (status: the phase has a machine)", strings.Join(w.Rules[0].Resources, ","), "shops,shops/status"},
		{"annotations", len(c.Annotations), 0},
	}
	for _, ch := range checks {
		if ch.got != ch.want {
			t.Errorf("%s: got %v, want %v", ch.what, ch.got, ch.want)
		}
	}
}

// TestSettings covers the modes and the cert-manager annotation.
func TestSettings(t *testing.T) {
	m := load(t)
	out, _ := generate(t, m, hooks(served.Settings{Webhook: "always", WebhookDir: "deploy/hooks", WebhookService: "shops/hooks", WebhookCertificate: "shops/serving-cert"}))
	got := files(t, out)
	if src := string(got[webhook.FileName]); !strings.Contains(src, "type PlainWebhook struct") {
		t.Error("always: Plain has no webhook")
	}
	for _, f := range out {
		if strings.HasSuffix(f.Path, ".yaml") && !strings.Contains(filepath.ToSlash(f.Path), "/deploy/hooks/") {
			t.Errorf("webhookDir: the manifest is at %s", f.Path)
		}
	}
	c := configuration(t, got[manifestFile])
	if c.Annotations["cert-manager.io/inject-ca-from"] != "shops/serving-cert" {
		t.Errorf("webhookCertificate: annotations %v", c.Annotations)
	}
	if len(c.Webhooks) != 2 || c.Webhooks[0].ClientConfig.Service.Name != "hooks" || c.Webhooks[1].ClientConfig.Service.Namespace != "shops" {
		t.Errorf("always and webhookService: %+v", c.Webhooks)
	}
	if out, diags := generate(t, m, hooks(served.Settings{Webhook: "never"})); len(out) > 0 || len(diags) > 0 {
		t.Errorf("never: got %d files, %v", len(out), diags)
	}
	for _, bad := range []served.Settings{{Webhook: "sometimes"}, {WebhookCertificate: "no-namespace"}, {WebhookService: "a/b/c"}} {
		out, diags := generate(t, m, hooks(bad))
		if len(out) > 0 || !diags.HasErrors() || !strings.Contains(diags.Error(), "modelgen.yaml:1:1: ") {
			t.Errorf("%+v: want a positioned error and no files, got %d files, %v", bad, len(out), diags)
		}
	}
}

// TestGoldenAndDeterministic compares the Go file with its golden copy
// (go test -update rewrites it) and demands the same bytes on a second run.
// The generated code is compiled and run against a real API server by the
// examples (examples/payments and examples/e2e/webhook_test.go).
func TestGoldenAndDeterministic(t *testing.T) {
	m := load(t)
	first, _ := generate(t, m, gen.Config{})
	second, _ := generate(t, m, gen.Config{})
	a, b := files(t, first), files(t, second)
	for name := range a {
		if !bytes.Equal(a[name], b[name]) {
			t.Errorf("%s differs between two runs", name)
		}
	}
	src := a[webhook.FileName]
	if !bytes.HasPrefix(src, []byte("// Code generated by modelgen. DO NOT EDIT.\n")) {
		t.Error("the generated file does not start with the header")
	}
	golden := filepath.Join("testdata", "shop.golden", webhook.FileName+".golden")
	testkit.Golden(t, golden, string(src))
	for _, row := range []string{
		`"shop.ShopSpec.Contact":  {Type: "shop.Contact"}`,
		`"shop.ShopSpec.Items":    {JSON: "items", Type: "shop.Item", Dims: "s"}`,
		`"shop.ShopSpec.Labels":   {JSON: "labels", Dims: "m"}`,
		`"shop.ShopSpec.Owner":    {JSON: "owner", Type: "shop.Person"}`,
		`webhookPhaseChange(field.NewPath("status", "phase"), oldObj.Status.Phase, obj.Status.Phase)`,
	} {
		if !bytes.Contains(src, []byte(row)) {
			t.Errorf("the generated code lacks %s", row)
		}
	}
	// the helpers live in the runtime package admit, written once
	for _, helper := range []string{"func webhookPath", "func webhookValidate", "func webhookSegment", "sync.OnceValue"} {
		if bytes.Contains(src, []byte(helper)) {
			t.Errorf("the generated code holds %s, which package admit provides", helper)
		}
	}
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestNameCollision: a declaration of the name the generated webhook needs
// is a positioned error, and nothing is generated.
func TestNameCollision(t *testing.T) {
	m, err := model.Load(model.Config{Patterns: []string{"./testdata/collide"}})
	if err != nil || m.Diags.HasErrors() {
		t.Fatal(err, m.Diags)
	}
	out, diags := generate(t, m, gen.Config{})
	want := "collide/types.go:12:6: webhook: OrderWebhook is already declared; the generated webhook of Order needs the name"
	if len(out) > 0 || !strings.Contains(diags.Error(), want) {
		t.Errorf("want no files and %q, got %d files and %v", want, len(out), diags)
	}
}
