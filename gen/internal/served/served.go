package served

import (
	"strings"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/model"
)

// Served is one webhook this backend generates: what another
// configuration in the same cluster must not reuse.
type Served struct {
	Name, Path string
	Type       *model.Type
}

// WebhookName is the name of a kind's webhook in the configuration:
// v<kind>-<version>.<group>.
func WebhookName(t *model.Type) string {
	return "v" + strings.ToLower(t.Resource.Kind) + "-" + t.Pkg.Version + "." + t.Pkg.Group
}

// ServedBy lists the webhooks the backend generates for a package under
// its settings (none when the settings are wrong: the backend reports
// those).
func ServedBy(c *gen.Context, pk *model.Package) []Served {
	cfg, diags := Resolve(c, pk)
	if diags.HasErrors() || pk.Group == "" {
		return nil
	}
	var out []Served
	for _, k := range Kinds(c, pk, cfg.Webhook) {
		out = append(out, Served{Name: WebhookName(k.Type), Path: Path(k.Type), Type: k.Type})
	}
	return out
}
