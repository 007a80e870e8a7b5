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

// Settings are the webhook settings of a package (modelgen.yaml), which the
// webhook backend, the webhookconfig backend (its directory) and the
// conversion backend (the service) read; the webhook and webhookconfig
// backends declare them (gen.Configurable).
type Settings struct {
	// Webhook says which kinds get a validating webhook: auto (kinds with
	// checks no schema can carry; the default), always or never.
	Webhook string `json:"webhook"`
	// WebhookDir is where ValidatingWebhookConfigurations go, relative to
	// the module root.
	WebhookDir string `json:"webhookDir" path:"module"`
	// WebhookService is the namespace/name of the Service in front of the
	// webhook server (default system/webhook-service, as controller-gen).
	WebhookService string `json:"webhookService"`
	// WebhookCertificate, when set, is the namespace/name of the
	// cert-manager Certificate whose CA cert-manager injects into the
	// configuration (the cert-manager.io/inject-ca-from annotation).
	WebhookCertificate string `json:"webhookCertificate"`
}

// Defaults are the settings of a package that sets none.
var Defaults = Settings{WebhookDir: DefaultDir}

// Of returns a package's webhook settings as set (else Defaults).
func Of(cfg gen.Config) Settings { return gen.Own(cfg, Defaults) }

// Resolve returns a package's webhook settings with their defaults, and
// the mistakes in them.
func Resolve(c *gen.Context, pk *model.Package) (Settings, model.Diagnostics) {
	var diags model.Diagnostics
	cfg := Of(c.Config(pk))
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
