package webhook

import (
	"path/filepath"
	"strings"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/gen/internal/filtered"
	"github.com/modelgen/modelgen/model"
)

// FileName is the generated Go file in each package with a webhook.
const FileName = "zz_generated.webhook.go"

// Defaults of the settings.
const (
	DefaultDir     = "config/webhook"
	DefaultService = "system/webhook-service"
)

// Generator is the webhook backend.
type Generator struct{}

// Name is the backend's name on the command line.
func (Generator) Name() string { return "webhook" }

// Generate writes, for each package with kinds that need a webhook, the Go
// webhook and the ValidatingWebhookConfiguration.
func (Generator) Generate(c *gen.Context) ([]gen.File, model.Diagnostics) {
	var diags model.Diagnostics
	var files []gen.File
	rules := c.Model.Access
	for _, pk := range c.Model.Packages {
		cfg, d := settings(c, pk)
		diags.Add(d)
		if d.HasErrors() {
			continue
		}
		kinds := Kinds(c, pk, cfg.Webhook)
		if len(kinds) == 0 {
			continue
		}
		if pk.Group == "" || pk.ModDir == "" {
			diags.Errorf(kinds[0].Type.Pos, "webhook: %s needs a webhook but its package has no +groupName or is outside a module", kinds[0].Type.Name)
			continue
		}
		governed := map[*model.Type]bool{}
		if rules != nil {
			for _, tr := range filtered.Entries(rules, pk) {
				governed[tr.Type] = true
			}
		}
		f, d := goFile(pk, kinds, governed)
		diags.Add(d)
		if f == nil {
			continue
		}
		m, d := manifest(pk, kinds, cfg)
		diags.Add(d)
		if m == nil {
			continue
		}
		files = append(files, *f, *m)
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return files, diags
}

// settings are a package's webhook settings with their defaults, checked.
func settings(c *gen.Context, pk *model.Package) (gen.Config, model.Diagnostics) {
	var diags model.Diagnostics
	cfg := c.Config(pk)
	at := model.Pos{File: filepath.Join(pk.Dir, "modelgen.yaml"), Line: 1, Col: 1}
	switch cfg.Webhook {
	case "":
		cfg.Webhook = ModeAuto
	case ModeAuto, ModeAlways, ModeNever:
	default:
		diags.Errorf(at, "webhook: %q is not a webhook mode (auto, always or never)", cfg.Webhook)
	}
	if cfg.WebhookDir == "" {
		cfg.WebhookDir = DefaultDir
	}
	if cfg.WebhookService == "" {
		cfg.WebhookService = DefaultService
	}
	for _, s := range []struct{ name, v string }{{"webhookService", cfg.WebhookService}, {"webhookCertificate", cfg.WebhookCertificate}} {
		if ns, name, ok := strings.Cut(s.v, "/"); s.v != "" && (!ok || ns == "" || name == "" || strings.Contains(name, "/")) {
			diags.Errorf(at, "webhook: %s %q is not namespace/name", s.name, s.v)
		}
	}
	return cfg, diags
}

// Path is controller-runtime's path of a kind's validating webhook:
// /validate-<group with dashes>-<version>-<kind in lower case>.
func Path(t *model.Type) string {
	return "/validate-" + strings.ReplaceAll(t.Pkg.Group, ".", "-") + "-" + t.Pkg.Version + "-" + strings.ToLower(t.Resource.Kind)
}
