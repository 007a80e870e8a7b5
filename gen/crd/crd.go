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
	"github.com/modelgen/modelgen/internal/pipe"
	"github.com/modelgen/modelgen/internal/yamlout"
	"github.com/modelgen/modelgen/model"
	mschema "github.com/modelgen/modelgen/schema"
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

// Generate builds, checks and renders a CRD for every group and kind. Each
// CRD is rendered as soon as it is built and checked, and only its bytes
// are kept: a run holds one CRD's objects at a time, not the module's.
func (g Generator) Generate(c *gen.Context) ([]gen.File, model.Diagnostics) {
	files, diags := build(c, func(r Result) (gen.File, model.Diagnostics) {
		var diags model.Diagnostics
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
			return gen.File{}, diags
		}
		name := fmt.Sprintf("%s_%s.yaml", r.CRD.Spec.Group, r.CRD.Spec.Names.Plural)
		return gen.File{Path: filepath.Join(r.Root.Pkg.ModDir, cfg.CRDDir, name), Data: data, Owner: r.Root.Pkg.Path}, nil
	})
	if diags.HasErrors() {
		return nil, diags
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
	return build(c, func(r Result) (Result, model.Diagnostics) { return r, nil })
}

// build builds and checks each CRD of the model and hands it to keep,
// and returns what keep made of them, in the order of the CRDs' names.
// keep runs beside the build, in its goroutine, and the API server's check
// in pipe.Ordered's workers, several CRDs at a time (the check costs about
// what the build and the rendering cost together, so this balances the
// two sides): keep must read nothing but its CRD and the model, and change
// neither but for the CRD's own annotations. The flattened schemas a CRD is
// built from are its own (flattenRoots) and are released, with the CRD,
// once its check returns.
func build[T any](c *gen.Context, keep func(Result) (T, model.Diagnostics)) ([]T, model.Diagnostics) {
	set := c.Schemas(model.TargetCRD)
	diags := append(model.Diagnostics(nil), set.Diags...)
	if diags.HasErrors() {
		return nil, diags
	}
	types := c.Model.SortedTypes()
	byGK := map[schema.GroupKind][]*model.Type{}
	var gks []schema.GroupKind
	for _, t := range types {
		if t.Resource == nil {
			continue
		}
		if t.Pkg.Group == "" {
			diags.Errorf(t.Pos, "%s is a resource root, but package %s has no +groupName marker", t.Name, t.Pkg.Path)
			continue
		}
		gk := schema.GroupKind{Group: t.Pkg.Group, Kind: t.Name}
		if byGK[gk] == nil {
			gks = append(gks, gk)
		}
		byGK[gk] = append(byGK[gk], t)
	}
	type built struct {
		r     Result
		kept  T
		diags model.Diagnostics
	}
	type item struct {
		name  string
		kept  T
		diags model.Diagnostics
	}
	// Verify compiles the rules as this build's API server does; a rule
	// that needs a newer server than the CRDs' minimum is a warning
	// (schema.MinKubernetes), the same one the OpenAPI backend gives. The
	// rules of the roots are compiled against the schemas their CRD is
	// built from, the others' after the CRDs.
	rules := set.RuleCompiler()
	ruleDiags := map[*model.Type]model.Diagnostics{}
	// Building a CRD asks controller-tools' parser and stays in this
	// goroutine, as keep (the rendering) does; the API server's check is
	// the CRD's own and runs beside them (pipe.Ordered), in the order of gks.
	items := pipe.Ordered(func(send func(built)) {
		for _, gk := range gks {
			roots := byGK[gk]
			flat := flattenRoots(set, gk)
			set.Parser.NeedCRDFor(gk, c.MaxDescLen())
			for _, t := range roots {
				if sc, ok := flat[mschema.Ident(t)]; ok {
					ruleDiags[t] = rules.Compile(t, func() *apiext.JSONSchemaProps { return &sc })
				}
			}
			for id := range flat {
				delete(set.Parser.FlattenedSchemata, id)
			}
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
			r := Result{CRD: crd, Root: roots[0], Roots: roots}
			kept, kd := keep(r)
			send(built{r: r, kept: kept, diags: kd})
		}
	}, func(b built) item {
		return item{name: b.r.CRD.Name, kept: b.kept, diags: append(Verify(b.r), b.diags...)}
	})
	sort.SliceStable(items, func(i, j int) bool { return items[i].name < items[j].name })
	out := make([]T, len(items))
	for i, it := range items {
		out[i] = it.kept
		diags.Add(it.diags)
	}
	fl := &ctcrd.Flattener{Parser: set.Parser} // the other types', released with them
	for _, t := range types {
		d, done := ruleDiags[t]
		if !done {
			d = rules.Compile(t, func() *apiext.JSONSchemaProps { return flatten(fl, mschema.Ident(t)) })
		}
		for _, w := range d {
			if w.Severity == model.Warning {
				diags = append(diags, w)
			}
		}
	}
	return out, diags
}

// flattenRoots flattens the schemas NeedCRDFor builds the CRD of a group
// and kind from (the type of that name in each package of the group), as
// the parser's NeedFlattenedSchemaFor does, but with a flattener of their
// own: the parser's keeps every type it flattens for the rest of the run.
// The caller removes them from the parser's FlattenedSchemata once the CRD
// is built.
func flattenRoots(set *mschema.Set, gk schema.GroupKind) map[ctcrd.TypeIdent]apiext.JSONSchemaProps {
	p := set.Parser
	fl := &ctcrd.Flattener{Parser: p}
	out := map[ctcrd.TypeIdent]apiext.JSONSchemaProps{}
	for pkg, gv := range p.GroupVersions {
		id := ctcrd.TypeIdent{Package: pkg, Name: gk.Kind}
		if gv.Group != gk.Group || p.Types[id] == nil {
			continue
		}
		if _, known := p.FlattenedSchemata[id]; known {
			continue
		}
		if full := flatten(fl, id); full != nil {
			p.FlattenedSchemata[id] = *full
			out[id] = *full
		}
	}
	return out
}

// flatten is NeedFlattenedSchemaFor's schema of a type, with the given
// flattener; nil when the flattener cannot (it records why on the
// type's package).
func flatten(fl *ctcrd.Flattener, id ctcrd.TypeIdent) *apiext.JSONSchemaProps {
	fl.Parser.NeedSchemaFor(id)
	partial := fl.FlattenType(id)
	if partial == nil {
		return nil
	}
	return ctcrd.FlattenEmbedded(partial, id.Package)
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
