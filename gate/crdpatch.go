package gate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	yaml "go.yaml.in/yaml/v3"
	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	sigsyaml "sigs.k8s.io/yaml"
)

// crdPatch is the part of a kustomize patch of a CRD the gate applies
// (kubebuilder's config/crd/patches: webhook_in_<plural>.yaml, which
// modelgen's conversion backend writes, and cainjection_in_<plural>.yaml):
// spec.conversion and metadata.annotations. Everything else in a patch is
// not read.
type crdPatch struct {
	Kind     string `json:"kind"`
	Metadata struct {
		Name        string            `json:"name"`
		Annotations map[string]string `json:"annotations"`
	} `json:"metadata"`
	Spec struct {
		Conversion *apiext.CustomResourceConversion `json:"conversion"`
	} `json:"spec"`
}

// basePatches is where the base's patches are read from: BasePatches, or
// Patches at the base's git ref when the base is git:<ref>:... and the
// path exists there ("" when there is nothing to read: a base that is not
// from git is judged as given, and so is one whose ref has no patches).
func basePatches(ctx context.Context, opts CRDOptions) string {
	if opts.BasePatches != "" || opts.Patches == "" {
		return opts.BasePatches
	}
	loc, err := parseLocation(opts.Base, opts.Dir)
	if err != nil || loc.ref == "" {
		return ""
	}
	if _, err := git(ctx, opts.Dir, "cat-file", "-e", loc.ref+":"+opts.Patches); err != nil {
		return ""
	}
	return gitPrefix + loc.ref + ":" + opts.Patches
}

// applyPatches reads the CRD patches at given (a file, a directory or
// git:<ref>:<path>) and applies each to the CRD of its name on a side:
// spec.conversion replaced, annotations merged. A patch of a CRD the side
// does not have is not applied.
func applyPatches(ctx context.Context, given, dir string, lim Limits, crds []crdSource) error {
	files, err := crdFiles(ctx, given, dir, lim)
	if err != nil {
		return err
	}
	byName := map[string]*apiext.CustomResourceDefinition{}
	for _, c := range crds {
		byName[c.crd.Name] = c.crd
	}
	budget := &aliasBudget{side: true}
	for _, f := range files {
		dec := yaml.NewDecoder(bytes.NewReader(f.data))
		for {
			var doc yaml.Node
			err := dec.Decode(&doc)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return fmt.Errorf("%s: not readable YAML or JSON: %w", f.name, err)
			}
			at := fmt.Sprintf("%s:%d:%d", f.name, doc.Line, doc.Column)
			if err := budget.check(&doc, lim); err != nil {
				return fmt.Errorf("%s: %w", at, err)
			}
			if err := checkNesting(&doc, lim); err != nil {
				return fmt.Errorf("%s: %w", at, err)
			}
			text, err := yaml.Marshal(&doc)
			if err != nil {
				return fmt.Errorf("%s: %w", at, err)
			}
			var p crdPatch
			if err := sigsyaml.Unmarshal(text, &p); err != nil {
				return fmt.Errorf("%s: %w", at, err)
			}
			crd := byName[p.Metadata.Name]
			if p.Kind != "CustomResourceDefinition" || crd == nil {
				continue
			}
			if p.Spec.Conversion != nil {
				crd.Spec.Conversion = p.Spec.Conversion
				defaultConversion(crd)
			}
			for k, v := range p.Metadata.Annotations {
				if crd.Annotations == nil {
					crd.Annotations = map[string]string{}
				}
				crd.Annotations[k] = v
			}
		}
	}
	return nil
}
