package webhook

import (
	"path/filepath"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/gen/internal/served"
)

// Outputs declares, for each package in a module, zz_generated.webhook.go
// and its ValidatingWebhookConfiguration in the webhook directory.
func (Generator) Outputs(c *gen.Context) []gen.Output {
	var out []gen.Output
	for _, pk := range c.Model.Packages {
		if pk.ModDir == "" {
			continue
		}
		dir := served.Of(c.Config(pk)).WebhookDir
		if dir == "" {
			dir = served.DefaultDir
		}
		out = append(out,
			gen.Output{Format: gen.FormatGo, Dir: pk.Dir, Name: FileName},
			gen.Output{Format: gen.FormatYAML, Dir: filepath.Join(pk.ModDir, dir), Name: gen.Quote(ManifestName(pk))})
	}
	return out
}

// Settings are the backend's settings (gen.Configurable): the webhook
// settings it shares with webhookconfig.
func (Generator) Settings() any { return served.Defaults }
