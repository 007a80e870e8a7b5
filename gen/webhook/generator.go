package webhook

import (
	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/gen/internal/filtered"
	"github.com/modelgen/modelgen/gen/internal/served"
	"github.com/modelgen/modelgen/model"
)

// FileName is the generated Go file in each package with a webhook.
const FileName = "zz_generated.webhook.go"

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
		cfg, d := served.Resolve(c, pk)
		diags.Add(d)
		if d.HasErrors() {
			continue
		}
		kinds := served.Kinds(c, pk, cfg.Webhook)
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
