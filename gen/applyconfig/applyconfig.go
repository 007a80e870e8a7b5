// Package applyconfig is `modelgen controller-gen`'s applyconfiguration
// (for kubebuilder's `create api --ssa`): it runs controller-tools' own
// applyconfiguration generator on the packages the model loaded, so the
// apply configurations of every package with +kubebuilder:ac:generate=true
// are exactly controller-gen v0.23.0's. It is no backend of the native run
// (gen/all's list).
//
// That generator does not write through controller-gen's output rules: it
// hands the package to gengo (k8s.io/code-generator's applyconfiguration-gen),
// which creates <package dir>/<+kubebuilder:ac:output:package, default
// applyconfiguration>/... itself; gen/ctrun runs it in a mirror of the
// package's directory (ctrun.Job.InPlace) and collects what it wrote.
package applyconfig

import (
	"sigs.k8s.io/controller-tools/pkg/applyconfiguration"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/gen/ctrun"
	"github.com/modelgen/modelgen/model"
)

// Name is the backend's name.
const Name = "applyconfiguration"

// Generator runs controller-tools' applyconfiguration generator with its
// options (headerFile, which gengo reads itself).
type Generator struct {
	ControllerGen applyconfiguration.Generator
}

func (Generator) Name() string { return Name }

// Generate returns the files the generator would have written, at their
// real paths (absolute), sorted.
func (g Generator) Generate(c *gen.Context) ([]gen.File, model.Diagnostics) {
	return ctrun.Generate(c.Model, Name, nil, []ctrun.Job{{Generator: g.ControllerGen, InPlace: true}})
}

// Outputs declares the Go files below each module root of the run's
// packages: the output package is a marker's path relative to the package
// (+kubebuilder:ac:output:package), inside its module.
func (Generator) Outputs(c *gen.Context) []gen.Output {
	var out []gen.Output
	dirs, _ := ctrun.ByModule(c.Model)
	for _, dir := range dirs {
		if dir != "" {
			out = append(out, gen.Output{Format: gen.FormatGo, Dir: dir, Name: "*.go", Tree: true})
		}
	}
	return out
}
