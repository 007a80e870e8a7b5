// Package all is modelgen's one list of backends and its one pipeline, as
// controller-tools' genall is controller-gen's: the CLI, the agreement
// harness and the fuzz target run these backends, in this order, and the
// writer removes the files they declare (gen.Backend.Outputs) once they
// are no longer generated. Adding a backend is adding it here.
//
// A Run is every step of one generation (load, settings, run cache,
// backends, declared-output check, type check, headers, output routing,
// writer); `modelgen generate` and `modelgen controller-gen` (ControllerGen:
// a selection of backends with controller-gen's options, plus its output
// rules) are two Runs.
package all

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/modelgen/modelgen/gen"
	agreegen "github.com/modelgen/modelgen/gen/agree"
	"github.com/modelgen/modelgen/gen/conversion"
	"github.com/modelgen/modelgen/gen/crd"
	"github.com/modelgen/modelgen/gen/deepcopy"
	"github.com/modelgen/modelgen/gen/openapidoc"
	policygen "github.com/modelgen/modelgen/gen/policy"
	rbacgen "github.com/modelgen/modelgen/gen/rbac"
	"github.com/modelgen/modelgen/gen/role"
	"github.com/modelgen/modelgen/gen/statemachine"
	"github.com/modelgen/modelgen/gen/webhook"
	"github.com/modelgen/modelgen/gen/webhookconfig"
	"github.com/modelgen/modelgen/model"
)

// backends are the backends in the order they run; each declares its
// outputs (the list's type says so).
var backends = []gen.Backend{
	openapidoc.Generator{},
	crd.Generator{},
	deepcopy.Generator{},
	conversion.Generator{},
	statemachine.Generator{},
	rbacgen.Generator{},
	webhook.Generator{},
	policygen.Generator{},
	role.Generator{},
	webhookconfig.Generator{},
	agreegen.Generator{},
}

// Backends returns every backend, in the order they run.
func Backends() []gen.Backend {
	return slices.Clone(backends)
}

// Settings are the backends' settings with their defaults, each type once
// (gen.Configurable; two backends may share one): with gen.Config's own
// fields, the settings of modelgen.yaml (gen.Keys).
func Settings() []any {
	var out []any
	seen := map[string]bool{}
	for _, b := range backends {
		if c, ok := b.(gen.Configurable); ok {
			s := c.Settings()
			if t := fmt.Sprintf("%T", s); !seen[t] {
				seen[t] = true
				out = append(out, s)
			}
		}
	}
	return out
}

// Keys are the settings of modelgen.yaml (gen.Keys of Settings); an
// error is a key two settings types declare.
func Keys() ([]gen.Key, error) { return gen.Keys(Settings()) }

// Set returns c with the setting of modelgen.yaml named key set to value
// (a string or a bool, as the setting is), as a modelgen.yaml that sets it
// does.
func Set(c gen.Config, key string, value any) (gen.Config, error) {
	keys, err := Keys()
	if err != nil {
		return c, err
	}
	for _, k := range keys {
		if k.Name != key {
			continue
		}
		if t := k.Field().Type; reflect.TypeOf(value) != t {
			return c, fmt.Errorf("setting %q: want a %s, got %T", key, t, value)
		}
		return c.With(k, value), nil
	}
	return c, fmt.Errorf("unknown setting %q", key)
}

// Names are the backends' names (--only), in the order they run.
func Names() []string {
	out := make([]string, len(backends))
	for i, b := range backends {
		out[i] = b.Name()
	}
	return out
}

// Select returns the backends a comma-separated list of names (--only)
// names, in the order given, each once (a name given twice runs once);
// empty means every backend. An unknown name is an error that lists the
// known ones.
func Select(only string) ([]gen.Backend, error) {
	if only == "" {
		return Backends(), nil
	}
	var out []gen.Backend
	seen := map[string]bool{}
	for _, name := range strings.Split(only, ",") {
		found := false
		for _, g := range backends {
			if g.Name() == strings.TrimSpace(name) {
				found = true
				if !seen[g.Name()] {
					out, seen[g.Name()] = append(out, g), true
				}
			}
		}
		if !found {
			return nil, fmt.Errorf("unknown backend %q (have %s)", name, strings.Join(Names(), ","))
		}
	}
	return out, nil
}

// Generate runs the backends on the model (gen.Run) and checks that each
// file is one its backend declares: a file the writer could not later find
// as its own fails the run (no file is returned).
func Generate(m *model.Model, configs map[string]gen.Config, backends []gen.Backend) ([]gen.File, model.Diagnostics) {
	return generateReplaying(m, configs, backends, nil)
}

// generateReplaying is Generate in an incremental run (gen.RunReplaying).
func generateReplaying(m *model.Model, configs map[string]gen.Config, backends []gen.Backend, replay *gen.Replay) ([]gen.File, model.Diagnostics) {
	files, diags := gen.RunReplaying(m, configs, backends, replay)
	if diags.HasErrors() {
		return nil, diags
	}
	var replayed []gen.Output
	if replay != nil {
		replayed = replay.Outputs
	}
	d := gen.CheckOutputs(m, configs, backends, files, replayed...)
	d.Add(gen.Duplicates(m, files))
	if d.HasErrors() {
		diags.Add(d)
		return nil, diags.Sorted()
	}
	return files, diags
}
