package served

import (
	"path/filepath"
	"strings"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/model"
)

// Defaults of the settings.
const (
	DefaultDir     = "config/webhook"
	DefaultService = "system/webhook-service"
)

// Settings returns a package's webhook settings with their defaults, and
// the mistakes in them.
func Settings(c *gen.Context, pk *model.Package) (gen.Config, model.Diagnostics) {
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

// ManifestName is the file of a package's configuration, under the webhook
// directory of its module.
func ManifestName(pk *model.Package) string {
	return pk.Group + "_" + pk.Version + "_manifests.yaml"
}
