package agree

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/go-playground/validator/v10"
	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/gen/all"
	"github.com/modelgen/modelgen/model"
)

// judgedBackends are the backends whose output the harness judges (--only
// names from gen/all's list): the OpenAPI document, the CRDs and the
// validating webhooks.
const judgedBackends = "openapi,crd,webhook"

// Config says what to check.
type Config struct {
	// Types are the Go types to check, all declared in the package in Dir:
	// Kubernetes resource roots (judged by validator, their OpenAPI
	// component and their CRD) and other structs such as +modelgen:model
	// types (judged by validator and their OpenAPI component).
	Types []reflect.Type
	// Dir is the directory of the package that declares Types; "" is the
	// current directory, which in a test is the package under test.
	Dir string
	// Package, when set, names that package by import path instead (it is
	// loaded from Dir); OpenAPI and CRDs stay relative to Dir.
	Package string
	// OpenAPI is the generated OpenAPI document, relative to Dir. Empty:
	// the document is built in memory by modelgen's pipeline.
	OpenAPI string
	// CRDs are the generated CRD files, relative to Dir. Empty: the CRDs
	// are built in memory.
	CRDs []string
	// Validator is the validator the application runs (default
	// validator.New()); register custom validations on it first.
	Validator *validator.Validate
	// Exceptions are divergences the caller accepts, besides the
	// documented Builtin ones.
	Exceptions []Exception
	// Webhook is the package's webhook mode (modelgen.yaml's webhook:
	// auto, always or never; "" is auto): the server side judges a
	// resource with the generated webhook when the mode gives it one.
	Webhook string
}

// Harness holds the loaded model, the schemas and the judges of every
// type under test.
type Harness struct {
	cfg        Config
	model      *model.Model
	subjects   []*subject
	validator  *validator.Validate
	exceptions []Exception
	// warned holds the positions of the model's runtime-only checks
	// (model.RuntimeOnly): a check there is not carried by the schemas, by
	// design.
	warned map[model.Pos]bool
	// wholeRuntimeOnly holds the fields whose whole value no schema
	// checks (model.OptionalStruct).
	wholeRuntimeOnly map[*model.Field]bool
	// docs caches the OpenAPI documents read once for all subjects.
	docs map[*model.Package]*openapi3.T
	// generated are the files modelgen's pipeline (gen.Run) makes of the
	// package, when OpenAPI or CRDs name no file: the very bytes the CLI
	// would write.
	generated []gen.File
	// mu guards the subjects' context bases, built lazily.
	mu sync.Mutex
}

// subject is one type under test.
type subject struct {
	rt      reflect.Type
	mt      *model.Type
	name    string // pkg.Type
	path    string // the REST path that creates one (resources only)
	val     validatorJudge
	oapi    openAPIJudge
	crd     *crdJudge
	hook    *webhookJudge // the generated webhook, nil when the kind has none
	base    document
	targets []*target
	// structs are the struct-valued fields without a validate tag that
	// the json tag lets be absent (omitempty, omitzero): validator walks
	// into them present or not (a missing one is the zero struct), which
	// the absent and empty probes of Cases try. Without either, the
	// schemas keep controller-gen's rule (required).
	structs []*target
	bases   map[string]document // context bases by container path
}

// target is one constrained field of a subject, at one JSON path.
type target struct {
	path  []step
	ns    string // validator's namespace of the field: "Sample.Spec.Name"
	field *model.Field
	owner *model.Type
}

func (tg *target) String() string { return pathString(tg.path) }

// New loads the package, the schemas and the judges.
func New(cfg Config) (*Harness, error) {
	dir := cfg.Dir
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	pattern := "."
	if cfg.Package != "" {
		pattern = cfg.Package
	}
	m, err := model.Load(model.Config{Dir: abs, Patterns: []string{pattern}})
	if err != nil {
		return nil, err
	}
	if m.Diags.HasErrors() {
		return nil, fmt.Errorf("modelgen reports errors in %s:\n%v", dir, m.Diags.Sorted())
	}
	h := &Harness{cfg: cfg, model: m, validator: cfg.Validator, exceptions: append(Builtin(), cfg.Exceptions...), warned: map[model.Pos]bool{}}
	if h.validator == nil {
		h.validator = validator.New()
	}
	configs := gen.DefaultConfigs(m)
	for path, c := range configs {
		if c, err = all.Set(c, "webhook", cfg.Webhook); err != nil {
			return nil, err
		}
		configs[path] = c
	}
	// the documents the harness judges: modelgen's own backends, from its one list
	backends, err := all.Select(judgedBackends)
	if err != nil {
		return nil, err
	}
	files, diags := all.Generate(m, configs, backends)
	if diags.HasErrors() {
		return nil, fmt.Errorf("modelgen reports errors in %s:\n%v", dir, diags)
	}
	h.generated = files
	h.warned = m.RuntimeOnlyAt()
	h.wholeRuntimeOnly = map[*model.Field]bool{}
	for _, r := range m.RuntimeOnly {
		if len(r.Uses) == 0 {
			h.wholeRuntimeOnly[r.Field] = true
		}
	}
	for _, rt := range cfg.Types {
		s, err := h.subject(abs, rt)
		if err != nil {
			return nil, err
		}
		h.subjects = append(h.subjects, s)
	}
	return h, nil
}

func (h *Harness) subject(dir string, rt reflect.Type) (*subject, error) {
	for rt.Kind() == reflect.Pointer {
		rt = rt.Elem()
	}
	mt := h.findType(rt)
	if mt == nil {
		return nil, fmt.Errorf("%s is not a struct type of the package in %s", rt, dir)
	}
	s := &subject{rt: rt, mt: mt, name: mt.QualifiedName(), val: validatorJudge{typ: rt, v: h.validator}, bases: map[string]document{}}
	doc, err := h.openAPIDocument(dir, mt.Pkg)
	if err != nil {
		return nil, err
	}
	s.oapi.schema = component(doc, mt)
	if s.oapi.schema == nil {
		return nil, fmt.Errorf("the OpenAPI document has no component for %s", s.name)
	}
	s.base = document{}
	if mt.Resource != nil {
		c, err := h.crd(dir, mt)
		if err != nil {
			return nil, err
		}
		if s.crd, err = newCRDJudge(c, mt.Pkg.Version); err != nil {
			return nil, err
		}
		if h.hasWebhook(mt) {
			s.hook = &webhookJudge{s.val}
		}
		meta := map[string]any{"name": "agree"}
		if mt.Resource.Namespaced {
			meta["namespace"] = "default"
		}
		s.base = document{"apiVersion": c.Spec.Group + "/" + mt.Pkg.Version, "kind": c.Spec.Names.Kind, "metadata": meta}
		s.path = "/apis/" + c.Spec.Group + "/" + mt.Pkg.Version
		if mt.Resource.Namespaced {
			s.path += "/namespaces/default"
		}
		s.path += "/" + c.Spec.Names.Plural
	}
	h.walk(s, mt, nil, s.rt.Name(), map[*model.Type]bool{})
	s.base = h.fix(s, s.base)
	return s, nil
}

func (h *Harness) findType(rt reflect.Type) *model.Type {
	for _, t := range h.model.SortedTypes() {
		if t.Pkg.Path == rt.PkgPath() && t.Name == rt.Name() && t.TypeKind == model.TypeStruct {
			return t
		}
	}
	return nil
}

func (h *Harness) openAPIDocument(dir string, pk *model.Package) (*openapi3.T, error) {
	if doc, ok := h.docs[pk]; ok {
		return doc, nil
	}
	var doc *openapi3.T
	var err error
	if h.cfg.OpenAPI == "" {
		want := filepath.Join(pk.Dir, gen.DefaultConfig(pk).OpenAPI)
		data := h.generatedFile(func(f gen.File) bool { return f.Path == want })
		if len(data) == 0 {
			return nil, fmt.Errorf("modelgen generates no OpenAPI document for %s (no resource root or +modelgen:model type)", pk.Path)
		}
		doc, err = openapi3.NewLoader().LoadFromData(data[0])
	} else {
		doc, err = openapi3.NewLoader().LoadFromFile(filepath.Join(dir, h.cfg.OpenAPI))
	}
	if err != nil {
		return nil, fmt.Errorf("reading the OpenAPI document: %w", err)
	}
	if h.docs == nil {
		h.docs = map[*model.Package]*openapi3.T{}
	}
	h.docs[pk] = doc
	return doc, nil
}

// generatedFile returns the contents of the generated files that match.
func (h *Harness) generatedFile(match func(gen.File) bool) [][]byte {
	var out [][]byte
	for _, f := range h.generated {
		if match(f) {
			out = append(out, f.Data)
		}
	}
	return out
}

// component finds a type's schema: user types are named by their Go name,
// or pkg.Name when two packages share a name.
func component(doc *openapi3.T, t *model.Type) *openapi3.Schema {
	if doc == nil || doc.Components == nil {
		return nil
	}
	for _, name := range []string{t.Name, t.QualifiedName()} {
		if ref := doc.Components.Schemas[name]; ref != nil && ref.Value != nil {
			return ref.Value
		}
	}
	return nil
}

func (h *Harness) crd(dir string, t *model.Type) (*apiext.CustomResourceDefinition, error) {
	var files []string
	var contents [][]byte
	if len(h.cfg.CRDs) == 0 {
		crdDir := filepath.Join(t.Pkg.ModDir, gen.DefaultConfig(t.Pkg).CRDDir)
		contents = h.generatedFile(func(f gen.File) bool { return filepath.Dir(f.Path) == crdDir })
		for range contents {
			files = append(files, "generated CRD")
		}
	}
	for _, file := range h.cfg.CRDs {
		data, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			return nil, err
		}
		files, contents = append(files, file), append(contents, data)
	}
	for i, data := range contents {
		for _, part := range bytes.Split(data, []byte("\n---")) {
			part = bytes.TrimPrefix(bytes.TrimSpace(part), []byte("---"))
			if len(bytes.TrimSpace(part)) == 0 {
				continue
			}
			c := &apiext.CustomResourceDefinition{}
			if err := yaml.UnmarshalStrict(part, c); err != nil {
				return nil, fmt.Errorf("%s: %w", files[i], err)
			}
			if c.Spec.Group == t.Pkg.Group && c.Spec.Names.Kind == t.Name {
				return c, nil
			}
		}
	}
	if len(h.cfg.CRDs) == 0 {
		return nil, fmt.Errorf("modelgen generates no CRD for %s", t.QualifiedName())
	}
	return nil, fmt.Errorf("none of %v holds the CRD of %s (group %q)", h.cfg.CRDs, t.Name, t.Pkg.Group)
}

// walk collects the constrained fields reachable from a struct: its own
// tagged fields, and those of the structs it holds (directly, through
// pointers, as the first element of a list or as the value of a map).
func (h *Harness) walk(s *subject, t *model.Type, path []step, ns string, seen map[*model.Type]bool) {
	if seen[t] || len(path) > 8 {
		return
	}
	seen[t] = true
	defer delete(seen, t)
	for _, f := range t.Fields {
		if f.Skip {
			continue
		}
		fns := ns + "." + f.GoName
		if f.Inline || f.JSONName == "" {
			if inner := structOf(f.Type); inner != nil {
				h.walk(s, inner, path, fns, seen)
			}
			continue
		}
		fp := appendPath(path, prop(f.JSONName))
		if f.Validate != nil && !f.Validate.Skip && len(f.Validate.Root.Checks)+countDive(f.Validate.Root) > 0 {
			s.targets = append(s.targets, &target{path: fp, ns: fns, field: f, owner: t})
		}
		if f.Validate != nil && f.Validate.Skip {
			continue
		}
		// (not a resource's status: the API server drops it on create, and
		// the schemas leave it optional, docs/exact-shapes.md)
		if f.Validate == nil && (f.OmitEmpty || f.OmitZero) && f.Type.Kind == model.KindStruct && f.Type.Named != nil && !model.ResourceStatus(t, f) {
			s.structs = append(s.structs, &target{path: fp, ns: fns, field: f, owner: t})
		}
		inner, via := innerStruct(f.Type)
		if inner == nil {
			continue
		}
		switch via {
		case model.KindSlice:
			h.walk(s, inner, appendPath(fp, elem(0)), fns+"[0]", seen)
		case model.KindMap:
			h.walk(s, inner, appendPath(fp, entry("k")), fns+"[k]", seen)
		default:
			h.walk(s, inner, fp, fns, seen)
		}
	}
}

func countDive(lv *model.Level) int {
	if lv == nil {
		return 0
	}
	n := 0
	if lv.Dive != nil {
		n += len(lv.Dive.Checks) + countDive(lv.Dive)
	}
	if lv.Keys != nil {
		n += len(lv.Keys.Checks)
	}
	return n
}

// structOf is the model struct a type names, through pointers.
func structOf(r *model.TypeRef) *model.Type {
	r = r.Deref()
	if r != nil && r.Named != nil && r.Named.TypeKind == model.TypeStruct {
		return r.Named
	}
	return nil
}

// innerStruct is the model struct a field holds and how: directly (or by
// pointer), as list elements or as map values.
func innerStruct(r *model.TypeRef) (*model.Type, model.Kind) {
	if t := structOf(r); t != nil {
		return t, model.KindStruct
	}
	r = r.Deref()
	if r != nil && (r.Kind == model.KindSlice || r.Kind == model.KindMap) {
		if t := structOf(r.Elem); t != nil {
			return t, r.Kind
		}
	}
	return nil, 0
}

// locate maps a validator namespace ("Sample.Spec.Tags[0]") to the JSON
// path, the field and the number of dives below the field.
func (s *subject) locate(ns string) (path []step, f *model.Field, dives int, ok bool) {
	parts := splitNamespace(ns)
	if len(parts) < 2 {
		return nil, nil, 0, false
	}
	t := s.mt
	for i, part := range parts[1:] {
		if t == nil {
			return nil, nil, 0, false
		}
		f = t.Field(part.name)
		if f == nil {
			return nil, nil, 0, false
		}
		if !f.Inline && f.JSONName != "" {
			path = append(path, prop(f.JSONName))
		}
		ref := f.Type.Deref()
		for _, key := range part.keys {
			if ref == nil {
				return nil, nil, 0, false
			}
			if ref.Kind == model.KindMap {
				path = append(path, entry(key))
			} else {
				var n int
				if _, err := fmt.Sscan(key, &n); err != nil {
					return nil, nil, 0, false
				}
				path = append(path, elem(n))
			}
			ref = ref.Elem.Deref()
		}
		dives = len(part.keys)
		if i < len(parts)-2 {
			t = nil
			if ref != nil && ref.Named != nil && ref.Named.TypeKind == model.TypeStruct {
				t = ref.Named
			}
		}
	}
	return path, f, dives, f != nil
}

type nsPart struct {
	name string
	keys []string
}

// splitNamespace splits "A.B[0][k].C" into parts; a key may hold dots.
func splitNamespace(ns string) []nsPart {
	var out []nsPart
	for i := 0; i < len(ns); {
		j := i
		for j < len(ns) && ns[j] != '.' && ns[j] != '[' {
			j++
		}
		p := nsPart{name: ns[i:j]}
		for j < len(ns) && ns[j] == '[' {
			end := closing(ns, j)
			p.keys = append(p.keys, ns[j+1:end])
			j = end + 1
		}
		out = append(out, p)
		i = j + 1
	}
	return out
}

// closing finds the ']' of the bracket at open: the first one followed by
// '.', '[' or the end.
func closing(ns string, open int) int {
	for k := open + 1; k < len(ns); k++ {
		if ns[k] == ']' && (k+1 == len(ns) || ns[k+1] == '.' || ns[k+1] == '[') {
			return k
		}
	}
	return len(ns) - 1
}

// levelAt is the level of a field's tag after the given number of dives,
// with the key level when the dive enters a map.
func levelAt(f *model.Field, dives int) (value, keys *model.Level) {
	if f.Validate == nil {
		return nil, nil
	}
	lv := f.Validate.Root
	for range dives {
		if lv == nil {
			return nil, nil
		}
		keys = lv.Keys
		lv = lv.Dive
	}
	return lv, keys
}

// typeAt is a field's type after the given number of dives.
func typeAt(f *model.Field, dives int) *model.TypeRef {
	t := f.Type
	for range dives {
		if t = t.Deref(); t == nil {
			return nil
		}
		t = t.Elem
	}
	return t
}

// subjects returns the names of the types under test.
func (h *Harness) names() []string {
	var out []string
	for _, s := range h.subjects {
		out = append(out, s.name)
	}
	sort.Strings(out)
	return out
}

// CRDs returns the CRDs the harness judges with, one per resource type.
func (h *Harness) CRDs() []*apiext.CustomResourceDefinition {
	var out []*apiext.CustomResourceDefinition
	for _, s := range h.subjects {
		if s.crd != nil {
			out = append(out, s.crd.CRD().DeepCopy())
		}
	}
	return out
}
