// Package webhookconfig is the backend of the +kubebuilder:webhook markers
// of a kubebuilder project: it writes config/webhook/manifests.yaml (the
// MutatingWebhookConfiguration and ValidatingWebhookConfiguration named
// mutating-webhook-configuration and validating-webhook-configuration)
// by running controller-tools' own webhook generator, the one
// controller-gen's `webhook` runs, on the packages the model loaded.
//
// # Beside modelgen's generated webhook
//
// The webhook backend (gen/webhook) writes a ValidatingWebhookConfiguration
// of its own for the kinds whose checks no schema can carry, in
// <group>_<version>_manifests.yaml of the same directory, named
// validating-webhook-configuration.<version>.<group>. The two files live
// side by side and never name the same configuration; this backend refuses
// (an error at the marker's package) a marker webhook with the name or the
// path of a webhook modelgen generates: two webhooks on one path would be
// one handler in controller-runtime's server, and two of one name one entry
// in a kustomize patch. A project that wants its own validating webhook for
// such a kind sets `webhook: never` in the kind's modelgen.yaml.
//
// Its --only name is "webhookconfig" ("webhook" is gen/webhook's).
package webhookconfig

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"sort"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	"sigs.k8s.io/controller-tools/pkg/loader"
	ctwebhook "sigs.k8s.io/controller-tools/pkg/webhook"
	"sigs.k8s.io/yaml"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/gen/ctrun"
	"github.com/modelgen/modelgen/gen/internal/served"
	"github.com/modelgen/modelgen/model"
)

// Name is the backend's --only name.
const Name = "webhookconfig"

// FileName is controller-gen's name for the file.
const FileName = "manifests.yaml"

// Generator writes manifests.yaml from +kubebuilder:webhook markers.
type Generator struct {
	// ControllerGen, when set, is the webhook generator of `modelgen
	// controller-gen webhook:...`: one manifests.yaml from the markers of
	// every package of the run, as controller-gen writes it, in
	// Artifacts.Dir (no check against modelgen's generated webhooks, which
	// that run does not write).
	ControllerGen *ctwebhook.Generator
	Artifacts     ctrun.Artifacts
}

func (Generator) Name() string { return Name }

// Settings are the backend's settings (gen.Configurable): the webhook
// settings it shares with the webhook backend (its webhookDir).
func (Generator) Settings() any { return served.Defaults }

func (g Generator) Generate(c *gen.Context) ([]gen.File, model.Diagnostics) {
	if g.ControllerGen != nil {
		return ctrun.Generate(c.Model, "webhook", g.Artifacts.Read, []ctrun.Job{{Generator: *g.ControllerGen, Place: g.Artifacts.Place}})
	}
	var jobs []ctrun.Job
	roots, ok := ctrun.Roots(c, Name)
	replayed, rok := replayedServed(c)
	if len(c.Replayed(Name)) > 0 && (!ok || !rok || !defaultDirs(c)) {
		// the incremental run starts again as a full one
		var diags model.Diagnostics
		diags.Errorf(model.Pos{}, "webhookconfig: the recorded part of a package cannot be replayed")
		return nil, diags
	}
	dirs, groups := ctrun.ByRoots(roots)
	for _, dir := range dirs {
		if dir == "" {
			continue
		}
		served, out, owner := servedIn(c, dir), filepath.Join(dir, webhookDir(c, dir)), owner(groups[dir])
		jobs = append(jobs, ctrun.Job{
			Generator: ctwebhook.Generator{},
			Roots:     groups[dir],
			Place:     func(o ctrun.Output) (string, string) { return filepath.Join(out, o.Name), owner },
			Check: func(o ctrun.Output) model.Diagnostics {
				return append(Collisions(o.Data, served), replayedCollisions(o.Data, replayed)...)
			},
		})
	}
	return ctrun.Generate(c.Model, "webhook", nil, jobs)
}

// part is a root package's part of its module's manifests.yaml
// (gen.Replayer): its webhook markers, and the webhooks modelgen generates
// for its kinds, which no marker may name.
type part struct {
	ctrun.MarkerPart
	Served []servedHook `json:"served,omitempty"`
}

type servedHook struct {
	Name string `json:"name"`
	Path string `json:"path,omitempty"`
}

// Parts are each root package's webhook markers and served webhooks, when
// no package of the run sets a webhookDir of its own.
func (g Generator) Parts(c *gen.Context) (map[string][]byte, bool) {
	if g.ControllerGen != nil || !defaultDirs(c) {
		return nil, false
	}
	marks, ok := ctrun.Parts(c.Model.Loaded, ctwebhook.Generator{})
	if !ok {
		return nil, false
	}
	hooks := map[string][]servedHook{}
	for _, pk := range c.Model.Packages {
		for _, s := range served.ServedBy(c, pk) {
			hooks[pk.Path] = append(hooks[pk.Path], servedHook{Name: s.Name, Path: s.Path})
		}
	}
	out := map[string][]byte{}
	for path, data := range marks {
		var p part
		if json.Unmarshal(data, &p.MarkerPart) != nil {
			return nil, false
		}
		p.Served = hooks[path]
		b, err := json.Marshal(p)
		if err != nil {
			return nil, false
		}
		out[path] = b
	}
	return out, true
}

// defaultDirs: no package of the model sets a webhookDir of its own.
func defaultDirs(c *gen.Context) bool {
	for _, pk := range c.Model.Packages {
		if filepath.Clean(served.Of(c.Config(pk)).WebhookDir) != filepath.Clean(served.DefaultDir) {
			return false
		}
	}
	return true
}

// replayedServed are the replayed packages' served webhooks.
func replayedServed(c *gen.Context) ([]servedHook, bool) {
	var out []servedHook
	for _, rp := range c.Replayed(Name) {
		var p part
		if json.Unmarshal(rp.Data, &p) != nil {
			return nil, false
		}
		out = append(out, p.Served...)
	}
	return out, true
}

// replayedCollisions is an error when a marker's webhook has the name or
// the path of a replayed package's generated webhook: the incremental run
// starts again as a full one, which names the kind.
func replayedCollisions(data []byte, replayed []servedHook) model.Diagnostics {
	var diags model.Diagnostics
	for _, w := range markerWebhooks(data) {
		for _, s := range replayed {
			if w.name == s.Name || w.path != "" && w.path == s.Path {
				diags.Errorf(model.Pos{}, "+kubebuilder:webhook %s collides with a webhook modelgen generates", w.name)
			}
		}
	}
	return diags
}

func servedIn(c *gen.Context, dir string) []served.Served {
	var out []served.Served
	for _, pk := range c.Model.Packages {
		if pk.ModDir == dir {
			out = append(out, served.ServedBy(c, pk)...)
		}
	}
	return out
}

// webhookDir is the module's webhookDir setting (from its API packages'
// modelgen.yaml; the first set, by import path, else config/webhook).
func webhookDir(c *gen.Context, dir string) string {
	pkgs := append([]*model.Package(nil), c.Model.Packages...)
	sort.Slice(pkgs, func(i, j int) bool { return pkgs[i].Path < pkgs[j].Path })
	for _, pk := range pkgs {
		if d := served.Of(c.Config(pk)).WebhookDir; pk.ModDir == dir && d != "" {
			return d
		}
	}
	return served.DefaultDir
}

// Collisions reports every webhook of a manifests.yaml that has the name or
// the path of a webhook modelgen generates.
func Collisions(data []byte, ours []served.Served) model.Diagnostics {
	var diags model.Diagnostics
	for _, w := range markerWebhooks(data) {
		for _, s := range ours {
			switch {
			case w.name == s.Name:
				diags.Errorf(s.Type.Pos, "+kubebuilder:webhook name=%s is the name of the webhook modelgen generates for %s (in %s); rename the marker's webhook, or set webhook: never in %s's modelgen.yaml", w.name, s.Type.Name, served.ManifestName(s.Type.Pkg), s.Type.Pkg.Path)
			case w.path != "" && w.path == s.Path:
				diags.Errorf(s.Type.Pos, "+kubebuilder:webhook %s serves path %s, where modelgen's generated webhook for %s is served; two handlers cannot share a path: drop the marker (modelgen's webhook validates %s), or set webhook: never in %s's modelgen.yaml", w.name, w.path, s.Type.Name, s.Type.Name, s.Type.Pkg.Path)
			}
		}
	}
	return diags
}

type markerWebhook struct{ name, path string }

// markerWebhooks reads the webhooks of controller-tools' manifests.yaml.
func markerWebhooks(data []byte) []markerWebhook {
	var out []markerWebhook
	for _, doc := range bytes.Split(data, []byte("\n---\n")) {
		var cfg struct {
			Webhooks []struct {
				Name         string                          `json:"name"`
				ClientConfig admissionv1.WebhookClientConfig `json:"clientConfig"`
			} `json:"webhooks"`
		}
		if yaml.Unmarshal(bytes.TrimPrefix(doc, []byte("---\n")), &cfg) != nil {
			continue
		}
		for _, w := range cfg.Webhooks {
			mw := markerWebhook{name: w.Name}
			if w.ClientConfig.Service != nil && w.ClientConfig.Service.Path != nil {
				mw.path = *w.ClientConfig.Service.Path
			}
			out = append(out, mw)
		}
	}
	return out
}

func owner(roots []*loader.Package) string {
	// the configuration of a module: the markers of any of its packages
	// make it (gen.ModuleOwner)
	for _, r := range roots {
		if r.Module != nil && r.Module.Path != "" {
			return gen.ModuleOwner(r.Module.Path)
		}
	}
	paths := make([]string, 0, len(roots))
	for _, r := range roots {
		paths = append(paths, r.PkgPath)
	}
	sort.Strings(paths)
	if len(paths) == 0 {
		return ""
	}
	return paths[0]
}
