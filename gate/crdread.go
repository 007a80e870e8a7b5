package gate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"
	apiextinternal "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	sigsyaml "sigs.k8s.io/yaml"
)

// maxCRDFiles bounds how many files one side of the CRD gate may list (a
// directory or a git tree); their bytes together stay within Limits.MaxBytes.
const maxCRDFiles = 1000

// crdSource is one CRD read from a side, with where it was written.
type crdSource struct {
	crd *apiext.CustomResourceDefinition
	at  string // file:line of the document
}

// readCRDSide reads every CRD of one side: a YAML or JSON file (one or more
// documents), a directory of them (not recursive), or git:<ref>:<path> to a
// file or a tree. Documents of another kind (a kustomization.yaml) are
// skipped; a v1beta1 CRD, a malformed one or one that is not structural is
// an error, reported with its file and line, all errors of a side at once.
func readCRDSide(ctx context.Context, given, dir string, lim Limits) ([]crdSource, error) {
	files, err := crdFiles(ctx, given, dir, lim)
	if err != nil {
		return nil, err
	}
	var crds []crdSource
	var errs []error
	budget := &aliasBudget{side: true}
	for _, f := range files {
		got, err := parseCRDFile(f.name, f.data, lim, budget)
		crds = append(crds, got...)
		if err != nil {
			errs = append(errs, err)
		}
		if limit := (*LimitError)(nil); errors.As(err, &limit) {
			break // the side's budget is spent: the files left are not read
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if len(crds) == 0 {
		return nil, fmt.Errorf("%s: no CustomResourceDefinition found", given)
	}
	return crds, checkDuplicates(crds)
}

type crdFile struct {
	name string
	data []byte
}

// crdFiles reads the files of a location, within the limits.
func crdFiles(ctx context.Context, given, dir string, lim Limits) ([]crdFile, error) {
	loc, err := parseLocation(given, dir)
	if err != nil {
		return nil, err
	}
	if loc.ref != "" {
		return gitCRDFiles(ctx, dir, loc, lim)
	}
	info, err := os.Stat(loc.file)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		data, err := loc.read(ctx, dir, lim.MaxBytes)
		return []crdFile{{given, data}}, err
	}
	entries, err := os.ReadDir(loc.file)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if isManifestName(e.Name()) && !e.IsDir() {
			names = append(names, e.Name())
		}
	}
	if len(names) > maxCRDFiles {
		return nil, fmt.Errorf("%s: %d files, more than the %d the gate reads from one directory", given, len(names), maxCRDFiles)
	}
	var files []crdFile
	budget := lim.MaxBytes
	for _, n := range names {
		data, err := readRegularFile(filepath.Join(loc.file, n), budget)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Join(given, n), err)
		}
		budget -= int64(len(data))
		files = append(files, crdFile{filepath.Join(given, n), data})
	}
	return files, nil
}

func isManifestName(name string) bool {
	ext := filepath.Ext(name)
	return ext == ".yaml" || ext == ".yml" || ext == ".json"
}

// gitCRDFiles reads a blob, or the manifest blobs directly in a tree, at a
// git ref, all together within Limits.MaxBytes.
func gitCRDFiles(ctx context.Context, dir string, loc location, lim Limits) ([]crdFile, error) {
	kind, err := git(ctx, dir, "cat-file", "-t", loc.ref+":"+loc.path)
	if err != nil || strings.TrimSpace(string(kind)) != "tree" {
		data, err := gitRead(ctx, dir, loc.ref, loc.path, lim.MaxBytes)
		return []crdFile{{loc.given, data}}, err
	}
	listing, err := git(ctx, dir, "ls-tree", "-z", loc.ref+":"+loc.path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", loc.given, err)
	}
	var names []string
	for entry := range strings.SplitSeq(strings.TrimRight(string(listing), "\x00"), "\x00") {
		meta, name, ok := strings.Cut(entry, "\t")
		if ok && strings.Contains(meta, " blob ") && isManifestName(name) {
			names = append(names, name)
		}
	}
	if len(names) > maxCRDFiles {
		return nil, fmt.Errorf("%s: %d files, more than the %d the gate reads from one directory", loc.given, len(names), maxCRDFiles)
	}
	slices.Sort(names)
	var files []crdFile
	budget := lim.MaxBytes
	for _, n := range names {
		p := strings.TrimSuffix(loc.path, "/") + "/" + n
		data, err := gitRead(ctx, dir, loc.ref, p, budget)
		if err != nil {
			return nil, err
		}
		budget -= int64(len(data))
		files = append(files, crdFile{"git:" + loc.ref + ":" + p, data})
	}
	return files, nil
}

// parseCRDFile decodes the CRDs of one file: each YAML document is checked
// for aliases and nesting on its unexpanded node tree (the OpenAPI side's
// checks), then decoded strictly into apiextensions.k8s.io/v1.
func parseCRDFile(name string, data []byte, lim Limits, budget *aliasBudget) ([]crdSource, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var crds []crdSource
	var errs []error
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return crds, errors.Join(append(errs, fmt.Errorf("%s: not readable YAML or JSON: %w", name, err))...)
		}
		at := fmt.Sprintf("%s:%d:%d", name, doc.Line, doc.Column)
		crd, err := decodeCRD(&doc, lim, budget)
		var limit *LimitError
		switch {
		case errors.As(err, &limit):
			// a spent budget refuses the side at once, not each document
			// left, each at the cost of its read
			return crds, errors.Join(append(errs, fmt.Errorf("%s: %w", at, err))...)
		case err != nil:
			errs = append(errs, fmt.Errorf("%s: %w", at, err))
		case crd != nil:
			crds = append(crds, crdSource{crd, at})
		}
	}
	return crds, errors.Join(errs...)
}

// decodeCRD returns nil, nil for a document that is not a CRD at all.
func decodeCRD(doc *yaml.Node, lim Limits, budget *aliasBudget) (*apiext.CustomResourceDefinition, error) {
	if err := budget.check(doc, lim); err != nil {
		return nil, err
	}
	if err := checkNesting(doc, lim); err != nil {
		return nil, err
	}
	// Decoded as kubectl decodes it (sigs.k8s.io/yaml, YAML 1.1: an
	// unquoted y, no, on is a boolean), not as YAML 1.2 would: the gate
	// judges what the API server was given.
	text, err := yaml.Marshal(doc)
	if err != nil {
		return nil, err
	}
	raw, err := sigsyaml.YAMLToJSONStrict(text)
	if err != nil {
		return nil, err
	}
	var generic any
	if err := json.Unmarshal(raw, &generic); err != nil {
		return nil, err
	}
	if generic == nil {
		return nil, nil // an empty document between two ---
	}
	top, ok := generic.(map[string]any)
	if !ok {
		return nil, errors.New("not a Kubernetes object (want a mapping with apiVersion and kind)")
	}
	if top["kind"] != "CustomResourceDefinition" {
		return nil, nil
	}
	if top["apiVersion"] != apiext.SchemeGroupVersion.String() {
		return nil, fmt.Errorf("apiVersion %v: the gate reads %s CRDs only", top["apiVersion"], apiext.SchemeGroupVersion)
	}
	jd := json.NewDecoder(bytes.NewReader(raw))
	jd.DisallowUnknownFields()
	crd := &apiext.CustomResourceDefinition{}
	if err := jd.Decode(crd); err != nil {
		return nil, fmt.Errorf("not a CustomResourceDefinition: %w", err)
	}
	defaultConversion(crd)
	return crd, checkCRD(crd)
}

// defaultConversion applies the API server's default to the webhook's
// service (port 443, SetDefaults_ServiceReference), which kubebuilder's
// and modelgen's conversion patches leave out: its validation refuses a
// service without a port, and runs after the defaults.
func defaultConversion(crd *apiext.CustomResourceDefinition) {
	if c := crd.Spec.Conversion; c != nil && c.Webhook != nil && c.Webhook.ClientConfig != nil && c.Webhook.ClientConfig.Service != nil {
		apiext.SetDefaults_ServiceReference(c.Webhook.ClientConfig.Service)
	}
}

// checkCRD refuses what the API server would never have accepted in a way
// that makes the comparison meaningless: no name, no versions, a version
// without a schema, a schema that is not structural.
func checkCRD(crd *apiext.CustomResourceDefinition) error {
	if crd.Name == "" {
		return errors.New("metadata.name is empty")
	}
	if len(crd.Spec.Versions) == 0 {
		return fmt.Errorf("%s: spec.versions is empty", crd.Name)
	}
	var errs []error
	storage := 0
	for _, v := range crd.Spec.Versions {
		if v.Storage {
			storage++
		}
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			errs = append(errs, fmt.Errorf("%s %s: no schema.openAPIV3Schema", crd.Name, v.Name))
			continue
		}
		if err := checkStructural(v.Schema.OpenAPIV3Schema); err != nil {
			errs = append(errs, fmt.Errorf("%s %s: %w", crd.Name, v.Name, err))
		}
	}
	if storage != 1 {
		errs = append(errs, fmt.Errorf("%s: %d storage versions, want exactly one", crd.Name, storage))
	}
	return errors.Join(errs...)
}

// checkStructural is the API server's own structural-schema check.
func checkStructural(s *apiext.JSONSchemaProps) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the schema cannot be read: %v", r)
		}
	}()
	var internal apiextinternal.JSONSchemaProps
	if err := apiext.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(s, &internal, nil); err != nil {
		return err
	}
	st, err := structuralschema.NewStructural(&internal)
	if err != nil {
		return fmt.Errorf("the schema is not structural: %w", err)
	}
	if errs := structuralschema.ValidateStructural(field.NewPath("openAPIV3Schema"), st); len(errs) > 0 {
		return fmt.Errorf("the schema is not structural: %w", errs.ToAggregate())
	}
	return nil
}

func checkDuplicates(crds []crdSource) error {
	first := map[string]string{}
	var errs []error
	for _, c := range crds {
		if at, ok := first[c.crd.Name]; ok {
			errs = append(errs, fmt.Errorf("%s: CRD %s is defined again (first at %s)", c.at, c.crd.Name, at))
			continue
		}
		first[c.crd.Name] = c.at
	}
	return errors.Join(errs...)
}
