// Package crd is the backend that writes apiextensions.k8s.io/v1
// CustomResourceDefinitions: controller-tools' parser gives each resource
// root its structure and kubebuilder markers, the schema package has laid
// the validate constraints over it, and before anything is written every
// CRD is checked by the API server's own code (conversion, structural
// schema, CEL compilation and cost), so a user never applies a CRD the
// server would refuse.
package crd

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"

	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctcrd "sigs.k8s.io/controller-tools/pkg/crd"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/internal/yamlout"
	"github.com/modelgen/modelgen/model"
)

// VersionAnnotation is controller-gen's annotation naming its version,
// which the CRDs of `modelgen controller-gen` carry (Generator.ToolVersion).
const VersionAnnotation = "controller-gen.kubebuilder.io/version"

// Generator writes CRDs to <module>/<crdDir>/<group>_<plural>.yaml.
type Generator struct {
	// ToolVersion, when set, is the controller-gen.kubebuilder.io/version
	// annotation of each CRD: `modelgen controller-gen` sets it to the
	// controller-tools version modelgen embeds (its CRDs are that
	// controller-gen's), unless crd:omitToolVersion; the native run writes
	// none.
	ToolVersion string
}

func (Generator) Name() string { return "crd" }

// Generate builds, checks and renders a CRD for every group and kind.
func (g Generator) Generate(c *gen.Context) ([]gen.File, model.Diagnostics) {
	crds, diags := Build(c)
	if diags.HasErrors() {
		return nil, diags
	}
	var files []gen.File
	for _, r := range crds {
		cfg := c.Config(r.Root.Pkg)
		if g.ToolVersion != "" {
			if r.CRD.Annotations == nil {
				r.CRD.Annotations = map[string]string{}
			}
			r.CRD.Annotations[VersionAnnotation] = g.ToolVersion
		}
		data, err := Render(r.CRD)
		if err != nil {
			diags.Errorf(r.Root.Pos, "rendering the CRD: %v", err)
			continue
		}
		name := fmt.Sprintf("%s_%s.yaml", r.CRD.Spec.Group, r.CRD.Spec.Names.Plural)
		files = append(files, gen.File{Path: filepath.Join(r.Root.Pkg.ModDir, cfg.CRDDir, name), Data: data, Owner: r.Root.Pkg.Path})
	}
	return files, diags
}

// Result is one generated CRD and the root type it came from (its first
// version's type).
type Result struct {
	CRD  *apiext.CustomResourceDefinition
	Root *model.Type
	// Roots holds the root type of each version.
	Roots []*model.Type
}

// Build returns the checked CRDs of the model, sorted by name.
func Build(c *gen.Context) ([]Result, model.Diagnostics) {
	set := c.Schemas(model.TargetCRD)
	diags := append(model.Diagnostics(nil), set.Diags...)
	if diags.HasErrors() {
		return nil, diags
	}
	byGK := map[schema.GroupKind][]*model.Type{}
	for _, t := range c.Model.SortedTypes() {
		if t.Resource == nil {
			continue
		}
		if t.Pkg.Group == "" {
			diags.Errorf(t.Pos, "%s is a resource root, but package %s has no +groupName marker", t.Name, t.Pkg.Path)
			continue
		}
		gk := schema.GroupKind{Group: t.Pkg.Group, Kind: t.Name}
		byGK[gk] = append(byGK[gk], t)
	}
	var out []Result
	for gk, roots := range byGK {
		set.Parser.NeedCRDFor(gk, c.MaxDescLen())
		raw, ok := set.Parser.CustomResourceDefinitions[gk]
		if !ok {
			diags.Errorf(roots[0].Pos, "controller-tools produced no CRD for %s", gk)
			continue
		}
		// The CRD is this call's own: NeedCRDFor built it on a deep copy
		// of the flattened schema, and taking it out of the parser's map
		// leaves no other reader (a later NeedCRDFor builds it again), so
		// it is edited in place rather than copied.
		delete(set.Parser.CustomResourceDefinitions, gk)
		crd := &raw
		ctcrd.FixTopLevelMetadata(*crd)
		removeMetadataDescription(crd)
		if len(crd.Spec.Versions) == 1 {
			crd.Spec.Versions[0].Storage = true
		}
		out = append(out, Result{CRD: crd, Root: roots[0], Roots: roots})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].CRD.Name < out[j].CRD.Name })
	for _, r := range out {
		diags.Add(Verify(r))
	}
	// Verify compiles the rules as this build's API server does; a rule
	// that needs a newer server than the CRDs' minimum is a warning
	// (schema.MinKubernetes), the same one the OpenAPI backend gives
	for _, d := range set.CompileRules(c.Model.SortedTypes()) {
		if d.Severity == model.Warning {
			diags = append(diags, d)
		}
	}
	return out, diags
}

func removeMetadataDescription(crd *apiext.CustomResourceDefinition) {
	for _, v := range crd.Spec.Versions {
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			continue
		}
		if m, ok := v.Schema.OpenAPIV3Schema.Properties["metadata"]; ok {
			m.Description = ""
			v.Schema.OpenAPIV3Schema.Properties["metadata"] = m
		}
	}
}

// Render writes a CRD as YAML without status and creationTimestamp, keys
// sorted, so that the same input always gives the same bytes.
func Render(crd *apiext.CustomResourceDefinition) ([]byte, error) {
	js, err := json.Marshal(crd)
	if err != nil {
		return nil, err
	}
	v, err := yamlout.Decode(js)
	if err != nil {
		return nil, err
	}
	obj, _ := v.(map[string]any)
	delete(obj, "status")
	if meta, ok := obj["metadata"].(map[string]any); ok {
		delete(meta, "creationTimestamp")
	}
	y, err := yamlout.Encode(obj) // JSONToYAML's bytes, one YAML pass
	if err != nil {
		return nil, err
	}
	return append([]byte("---\n"), y...), nil
}
