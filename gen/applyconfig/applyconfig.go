// Package applyconfig runs controller-tools' own applyconfiguration
// generator (controller-gen's `applyconfiguration`, for kubebuilder's
// `create api --ssa`) on the packages the model loaded, so the apply
// configurations of every package with +kubebuilder:ac:generate=true are
// exactly controller-gen v0.23.0's.
//
// That generator does not write through controller-gen's output rules: it
// hands the package to gengo (k8s.io/code-generator's applyconfiguration-gen),
// which creates <package dir>/<+kubebuilder:ac:output:package, default
// applyconfiguration>/... itself. To keep modelgen's one all-or-nothing
// writer, each package's directory is, for the length of its run, a mirror
// of it under a temporary directory: gengo writes there, and the files it
// wrote are collected, mapped back to the package's real directory, and the
// temporary directory is removed. Nothing the generator writes reaches the
// tree unless the whole run succeeds.
package applyconfig

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"sigs.k8s.io/controller-tools/pkg/applyconfiguration"
	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/gen/ctrun"
	"github.com/modelgen/modelgen/model"
)

// Generate runs g on every root package of the model and returns the files
// it would have written, at their real paths (absolute), sorted.
func Generate(m *model.Model, g applyconfiguration.Generator) ([]gen.File, model.Diagnostics) {
	var diags model.Diagnostics
	tmp, err := os.MkdirTemp("", "modelgen-applyconfiguration-")
	if err != nil {
		diags.Errorf(model.Pos{}, "applyconfiguration: %v", err)
		return nil, diags
	}
	defer os.RemoveAll(tmp)
	for _, root := range m.Loaded {
		if root.Package == nil || root.Dir == "" || len(root.GoFiles) == 0 {
			continue
		}
		real, err := filepath.Abs(root.Dir)
		if err != nil {
			diags.Errorf(model.Pos{File: root.GoFiles[0]}, "applyconfiguration: %v", err)
			continue
		}
		// the mirror holds the whole absolute path, so an output package
		// relative to the API directory (../../pkg/ac) stays inside it
		root.Dir = filepath.Join(tmp, real)
		_, d := ctrun.Run(m, []*loader.Package{root}, g, "applyconfiguration", nil)
		root.Dir = real
		diags.Add(d)
	}
	if diags.HasErrors() {
		return nil, diags
	}
	var files []gen.File
	err = filepath.WalkDir(tmp, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(tmp, path)
		if err != nil {
			return err
		}
		files = append(files, gen.File{Path: string(filepath.Separator) + rel, Data: data})
		return nil
	})
	if err != nil {
		diags.Errorf(model.Pos{}, "applyconfiguration: collecting the generated files: %v", err)
		return nil, diags
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files, diags
}
