package gate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"
	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/modelgen/modelgen/internal/crdjudge"
)

// MaxObjects bounds how many objects (list items included) the objects
// mode reads from all --crd-objects together.
const MaxObjects = 100_000

var maxObjects = MaxObjects // lowered by tests

// ObjectFinding is what the revision does to one stored object
// (--crd-objects): one entry per object and finding.
type ObjectFinding struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name"`
	Verdict    Level  `json:"verdict"`
	Path       string `json:"path,omitempty"`
	Rule       string `json:"rule"`
	Message    string `json:"message"`
}

// Object rule ids.
const (
	ObjectRuleReadPrunes         = "object-read-prunes"
	ObjectRuleReadDefaulted      = "object-read-defaulted"
	ObjectRuleReadInvalid        = "object-read-invalid"
	ObjectRuleUpdateRefused      = "object-update-refused"
	ObjectRuleLabelUpdateRefused = "object-label-update-refused"
	ObjectRuleCreateRefused      = "object-create-refused"
	ObjectRuleVersionRemoved     = "object-version-removed"
	ObjectRuleCRDRemoved         = "object-crd-removed"
	ObjectRuleKindUnknown        = "object-kind-unknown"
	ObjectRuleConversionWebhook  = "object-conversion-webhook"
)

// objectRules is the objects mode's rule table (docs/gate-crd.md).
var objectRules = []CRDRule{
	{ObjectRuleReadPrunes, LevelError, false, "a read through the version prunes the stored field: its data is lost at the next write", "a read through %s prunes the field"},
	{ObjectRuleReadDefaulted, LevelWarning, false, "a read through the version shows a default the object was stored without: controllers act on a value nobody wrote", "a read through %s shows a default the object was stored without"},
	{ObjectRuleReadInvalid, LevelInfo, false, "a read through the version returns a value its schema no longer admits (kept: reads are not validated)", "a read through %s holds a value its schema no longer admits: %s"},
	{ObjectRuleUpdateRefused, LevelError, false, "an update that leaves the object unchanged (a controller's status write, a re-apply) is refused: the object is stuck", "an unchanged update through %s is refused: %s"},
	{ObjectRuleLabelUpdateRefused, LevelError, false, "an update that changes only a label is refused: the object can no longer be labelled, annotated or finalized", "a label-only update through %s is refused: %s"},
	{ObjectRuleCreateRefused, LevelWarning, false, "the object could not be created again as it is: a restore from backup or a GitOps re-sync fails", "creating the object again through %s is refused: %s"},
	{ObjectRuleVersionRemoved, LevelError, false, "the object was read through a version the revision no longer serves: its clients get 404, and the server refuses the CRD update while the version is in status.storedVersions", "version %s, which the object was read through, is not served by the revision"},
	{ObjectRuleCRDRemoved, LevelError, false, "the revision has no CRD for the object: it is deleted with the CRD", "the revision has no CRD %s"},
	{ObjectRuleKindUnknown, LevelInfo, false, "neither side defines the object's kind: it is not judged", "no CRD defines %s"},
	{ObjectRuleConversionWebhook, LevelInfo, false, "a conversion webhook converts the object between versions: only reads through its own version are judged", "conversion Webhook: versions other than %s are not judged"},
}

var objectRuleByID = func() map[string]CRDRule {
	m := make(map[string]CRDRule, len(objectRules))
	for _, r := range objectRules {
		m[r.ID] = r
	}
	return m
}()

// ObjectRules returns a copy of the objects mode's rule table.
func ObjectRules() []CRDRule { return slices.Clone(objectRules) }

// storedObject is one object read from --crd-objects, with where.
type storedObject struct {
	obj map[string]any
	at  string
}

// readObjects reads every --crd-objects location: a file, a directory
// (walked, manifests only) or "-" (stdin), each holding objects as
// `kubectl get -o yaml|json` writes them: a List, or many documents. All
// locations together stay within Limits.MaxBytes, the alias budget of a
// side, the nesting of --max-schema-depth and MaxObjects.
func readObjects(givens []string, dir string, stdin io.Reader, lim Limits) ([]storedObject, error) {
	r := &objectReader{lim: lim, bytesLeft: lim.MaxBytes, budget: &aliasBudget{side: true}}
	stdinRead := false
	for _, given := range givens {
		var err error
		switch {
		case given == "-":
			if stdinRead {
				return nil, errors.New("--crd-objects -: stdin can be read once")
			}
			stdinRead = true
			if stdin == nil {
				stdin = strings.NewReader("")
			}
			var data []byte
			data, err = readAtMost(stdin, r.bytesLeft)
			if err == nil {
				r.bytesLeft -= int64(len(data))
				err = r.parse("stdin", data)
			}
		default:
			err = r.readPath(given, dir)
		}
		if err != nil {
			return nil, err
		}
	}
	return r.objects, nil
}

type objectReader struct {
	lim       Limits
	bytesLeft int64
	budget    *aliasBudget
	files     int
	objects   []storedObject
}

func (r *objectReader) readPath(given, dir string) error {
	path := given
	if dir != "" && !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	if !info.IsDir() {
		return r.readFile(given, path)
	}
	return filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !isManifestName(d.Name()) || !d.Type().IsRegular() {
			return nil
		}
		rel, _ := filepath.Rel(path, p)
		return r.readFile(filepath.Join(given, rel), p)
	})
}

func (r *objectReader) readFile(name, path string) error {
	r.files++
	if r.files > maxCRDFiles*10 {
		return &LimitError{Msg: fmt.Sprintf("--crd-objects: more than %d files", maxCRDFiles*10)}
	}
	data, err := readRegularFile(path, r.bytesLeft)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	r.bytesLeft -= int64(len(data))
	return r.parse(name, data)
}

// parse reads the documents of one source.
func (r *objectReader) parse(name string, data []byte) error {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: not readable YAML or JSON: %w", name, err)
		}
		at := fmt.Sprintf("%s:%d:%d", name, doc.Line, doc.Column)
		if err := r.budget.check(&doc, r.lim); err != nil {
			return fmt.Errorf("%s: %w", at, err)
		}
		if h, allowed := yamlHeight(&doc, map[*yaml.Node]int{}), yamlLevelsPerSchema*r.lim.MaxDepth+yamlLevelsAroundSchemas; h > allowed {
			return fmt.Errorf("%s: %w", at, &LimitError{Msg: fmt.Sprintf("the object nests %d levels deep, more than the %d that --max-schema-depth %d allows", h, allowed, r.lim.MaxDepth), Flag: "max-schema-depth"})
		}
		if err := r.add(at, &doc); err != nil {
			return err
		}
	}
}

// add decodes one document, as kubectl and the API server read it, into
// its objects: itself, or a List's items.
func (r *objectReader) add(at string, doc *yaml.Node) error {
	text, err := yaml.Marshal(doc)
	if err != nil {
		return fmt.Errorf("%s: %w", at, err)
	}
	raw, err := sigsyaml.YAMLToJSONStrict(text)
	if err != nil {
		return fmt.Errorf("%s: %w", at, err)
	}
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil // an empty document
	}
	obj, err := crdjudge.Decode(raw)
	if err != nil {
		return fmt.Errorf("%s: not a Kubernetes object (want a mapping with apiVersion and kind)", at)
	}
	kind, _ := obj["kind"].(string)
	items, isList := obj["items"].([]any)
	if !isList || !strings.HasSuffix(kind, "List") {
		return r.keep(at, obj)
	}
	listAPI, _ := obj["apiVersion"].(string)
	for i, it := range items {
		item, ok := it.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: items[%d] is not an object", at, i)
		}
		// a typed list (WidgetList) may leave apiVersion and kind to the list
		if _, ok := item["apiVersion"]; !ok && kind != "List" {
			item["apiVersion"] = listAPI
		}
		if _, ok := item["kind"]; !ok && kind != "List" {
			item["kind"] = strings.TrimSuffix(kind, "List")
		}
		if err := r.keep(fmt.Sprintf("%s items[%d]", at, i), item); err != nil {
			return err
		}
	}
	return nil
}

func (r *objectReader) keep(at string, obj map[string]any) error {
	if len(r.objects) >= maxObjects {
		return fmt.Errorf("%s: %w", at, &LimitError{Msg: fmt.Sprintf("--crd-objects hold more than %d objects", maxObjects)})
	}
	api, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	if api == "" || kind == "" {
		return fmt.Errorf("%s: not a Kubernetes object (want apiVersion and kind)", at)
	}
	r.objects = append(r.objects, storedObject{obj, at})
	return nil
}

// objectJudge judges stored objects under the revision.
type objectJudge struct {
	base, rev  []crdSource
	ratchets   bool
	showValues bool
	servers    map[string]*crdjudge.Server // crd name + "/" + version
	findings   []ObjectFinding
}

// probeLabel is the label a label-only update sets.
const probeLabel = "gate.modelgen.dev/probe"

// judgeObjects returns the findings of every stored object, in input order.
func judgeObjects(base, rev []crdSource, objs []storedObject, ratchets, showValues bool) []ObjectFinding {
	j := &objectJudge{base: base, rev: rev, ratchets: ratchets, showValues: showValues, servers: map[string]*crdjudge.Server{}}
	j.findings = []ObjectFinding{} // not nil: the report says the objects were judged
	for _, o := range objs {
		j.judge(o.obj)
	}
	return j.findings
}

func crdOfKind(side []crdSource, group, kind string) *apiext.CustomResourceDefinition {
	for _, c := range side {
		if c.crd.Spec.Group == group && c.crd.Spec.Names.Kind == kind {
			return c.crd
		}
	}
	return nil
}

func (j *objectJudge) server(crd *apiext.CustomResourceDefinition, version string) *crdjudge.Server {
	key := crd.Name + "/" + version
	if s, ok := j.servers[key]; ok {
		return s
	}
	s, err := crdjudge.New(crd, version)
	if err != nil {
		s = nil // a refused revision is crd-refused already
	} else if !j.ratchets {
		s = s.WithoutRatcheting()
	}
	j.servers[key] = s
	return s
}

// judge reads, updates and creates one object as the revision's server
// would (docs/gate-crd.md, "Stored objects").
func (j *objectJudge) judge(stored map[string]any) {
	api, _ := stored["apiVersion"].(string)
	kind, _ := stored["kind"].(string)
	group, version, _ := strings.Cut(api, "/")
	if !strings.Contains(api, "/") {
		group, version = "", api
	}
	emit := func(id, path string, args ...any) {
		rule := objectRuleByID[id]
		j.findings = append(j.findings, objectFinding(stored, rule, path, fmt.Sprintf(rule.Format, args...), j.showValues))
	}
	rev := crdOfKind(j.rev, group, kind)
	base := crdOfKind(j.base, group, kind)
	switch {
	case rev == nil && base != nil:
		emit(ObjectRuleCRDRemoved, "", base.Name)
		return
	case rev == nil:
		emit(ObjectRuleKindUnknown, "", kind+"."+group)
		return
	}
	own := findVersion(rev, version)
	if own == nil || !own.Served {
		emit(ObjectRuleVersionRemoved, "", version)
	}
	none := rev.Spec.Conversion == nil || rev.Spec.Conversion.Strategy == apiext.NoneConverter
	var versions []string
	for _, v := range rev.Spec.Versions {
		if v.Served && (none || v.Name == version) {
			versions = append(versions, v.Name)
		}
	}
	if !none && len(rev.Spec.Versions) > 1 {
		emit(ObjectRuleConversionWebhook, "", version)
	}
	// The object is in etcd in the storage version it was last written
	// in: the base's (or, for a new CRD, the revision's). A read decodes it
	// there (pruned, nulls dropped and defaulted by that version's schema
	// of the revision), converts it (None: relabels it) and prunes it again
	// in the version read, without its defaults (proved on the API server:
	// examples/e2e/crdgate, conversion-none-default).
	storage := storageVersion(rev)
	if base != nil && findVersion(rev, storageVersion(base)) != nil {
		storage = storageVersion(base)
	}
	createIn := ""
	if own != nil && own.Served {
		createIn = version
	}
	for _, v := range versions {
		srv := j.server(rev, v)
		if srv == nil {
			continue
		}
		read := runtime.DeepCopyJSON(stored)
		if st := j.server(rev, storage); none && st != nil {
			read["apiVersion"] = apiOf(group, storage)
			st.Read(read)
			read["apiVersion"] = apiOf(group, v)
			if v != storage {
				srv.Coerce(read)
			}
		} else {
			srv.Read(read) // converted by a webhook: judged in its own version
		}
		// what the read lost: pruned fields, dropped nulls
		for _, p := range addedPaths(read, stored, "") {
			emit(ObjectRuleReadPrunes, p, v)
		}
		for _, p := range addedPaths(stored, read, "") {
			emit(ObjectRuleReadDefaulted, p, v)
		}
		if v != createIn {
			for _, e := range significant(srv.Create(forCreate(read, rev, v))) {
				j.emitError(stored, ObjectRuleReadInvalid, e, v)
			}
		}
		for _, e := range significant(srv.Update(runtime.DeepCopyJSON(read), runtime.DeepCopyJSON(read))) {
			j.emitError(stored, ObjectRuleUpdateRefused, e, v)
		}
		labelled := runtime.DeepCopyJSON(read)
		setLabel(labelled, probeLabel, "label-only")
		for _, e := range significant(srv.Update(labelled, runtime.DeepCopyJSON(read))) {
			j.emitError(stored, ObjectRuleLabelUpdateRefused, e, v)
		}
	}
	if createIn != "" {
		if srv := j.server(rev, createIn); srv != nil {
			for _, e := range significant(srv.Create(forCreate(stored, rev, createIn))) {
				j.emitError(stored, ObjectRuleCreateRefused, e, createIn)
			}
		}
	}
}

func apiOf(group, version string) string {
	if group == "" {
		return version
	}
	return group + "/" + version
}

// emitError records a server error: its path, its type and detail, and
// the refused value only with --show-values.
func (j *objectJudge) emitError(stored map[string]any, id string, e *field.Error, version string) {
	rule := objectRuleByID[id]
	text := e.Type.String()
	if e.Detail != "" {
		text += ": " + e.Detail
	}
	if j.showValues && e.BadValue != nil {
		if b, err := json.Marshal(e.BadValue); err == nil {
			text += " (value " + string(b) + ")"
		}
	}
	path := ""
	if e.Field != "" && e.Field != "<nil>" {
		path = "." + strings.TrimPrefix(e.Field, ".")
	}
	msg := fmt.Sprintf(rule.Format, version, strings.Join(strings.Fields(text), " "))
	j.findings = append(j.findings, objectFinding(stored, rule, path, msg, j.showValues))
}

// significant drops the server's note that CEL rules were skipped (the
// errors before it say why), and sorts the errors by path (the server's
// order follows map iteration).
func significant(errs field.ErrorList) field.ErrorList {
	var out field.ErrorList
	for _, e := range errs {
		if e.Field == "<nil>" && strings.HasPrefix(e.Detail, "some validation rules were not checked") {
			continue
		}
		out = append(out, e)
	}
	slices.SortStableFunc(out, func(a, b *field.Error) int { return strings.Compare(a.Field+" "+a.Detail, b.Field+" "+b.Detail) })
	return out
}

func objectFinding(stored map[string]any, rule CRDRule, path, msg string, showValues bool) ObjectFinding {
	meta, _ := stored["metadata"].(map[string]any)
	name, _ := meta["name"].(string)
	ns, _ := meta["namespace"].(string)
	api, _ := stored["apiVersion"].(string)
	kind, _ := stored["kind"].(string)
	if !showValues {
		msg = scrub(msg, stored)
	}
	return ObjectFinding{APIVersion: api, Kind: kind, Namespace: ns, Name: name, Verdict: rule.Level, Path: path, Rule: rule.ID, Message: msg}
}

// scrub replaces every stored value (below metadata's name and namespace,
// which identify the object) that a message quotes: a CEL rule's
// messageExpression, or a server detail, may echo one.
func scrub(msg string, stored map[string]any) string {
	var values []string
	var walk func(v any, top bool)
	walk = func(v any, top bool) {
		switch v := v.(type) {
		case map[string]any:
			for k, c := range v {
				if top && (k == "apiVersion" || k == "kind") {
					continue
				}
				walk(c, false)
			}
		case []any:
			for _, c := range v {
				walk(c, false)
			}
		case string:
			if len(v) >= 3 {
				values = append(values, v)
			}
		case int64, float64:
			if s := fmt.Sprint(v); len(s) >= 3 {
				values = append(values, s)
			}
		}
	}
	for k, v := range stored {
		if k == "metadata" {
			m, _ := v.(map[string]any)
			for mk, mv := range m {
				if mk != "name" && mk != "namespace" {
					walk(mv, false)
				}
			}
			continue
		}
		walk(v, true)
	}
	// longest first, so that a value containing another is replaced whole
	slices.SortFunc(values, func(a, b string) int { return len(b) - len(a) })
	for _, v := range values {
		msg = strings.ReplaceAll(msg, v, "<value>")
	}
	return msg
}

// forCreate is obj as a create request would send it: without the fields
// the server sets (resourceVersion, uid, creationTimestamp, generation,
// managedFields), and without status when the version has a status
// subresource (the server drops it on create).
func forCreate(obj map[string]any, crd *apiext.CustomResourceDefinition, version string) map[string]any {
	c := runtime.DeepCopyJSON(obj)
	c["apiVersion"] = apiOf(crd.Spec.Group, version)
	if meta, ok := c["metadata"].(map[string]any); ok {
		for _, k := range []string{"resourceVersion", "uid", "creationTimestamp", "generation", "managedFields", "selfLink", "deletionTimestamp", "deletionGracePeriodSeconds"} {
			delete(meta, k)
		}
	}
	if v := findVersion(crd, version); v != nil && v.Subresources != nil && v.Subresources.Status != nil {
		delete(c, "status")
	}
	return c
}

func setLabel(obj map[string]any, key, value string) {
	meta, ok := obj["metadata"].(map[string]any)
	if !ok {
		meta = map[string]any{}
		obj["metadata"] = meta
	}
	labels, ok := meta["labels"].(map[string]any)
	if !ok {
		labels = map[string]any{}
		meta["labels"] = labels
	}
	labels[key] = value
}

// addedPaths are the paths of after that before lacks (the defaults a read
// applied, or, the other way round, what it pruned), metadata aside; list
// items are compared by index.
func addedPaths(before, after any, path string) []string {
	var out []string
	switch a := after.(type) {
	case map[string]any:
		b, _ := before.(map[string]any)
		keys := make([]string, 0, len(a))
		for k := range a {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if path == "" && (k == "metadata" || k == "apiVersion" || k == "kind") {
				continue
			}
			bv, ok := b[k]
			if !ok {
				out = append(out, path+"."+k)
				continue
			}
			out = append(out, addedPaths(bv, a[k], path+"."+k)...)
		}
	case []any:
		b, _ := before.([]any)
		for i, v := range a {
			if i < len(b) {
				out = append(out, addedPaths(b[i], v, fmt.Sprintf("%s[%d]", path, i))...)
			}
		}
	}
	return out
}

// objectsVerdict counts object findings by verdict.
func objectsVerdict(v *CRDVerdict, findings []ObjectFinding) {
	for _, f := range findings {
		switch f.Verdict {
		case LevelError:
			v.ObjectErrors++
		case LevelWarning:
			v.ObjectWarnings++
		default:
			v.ObjectInfos++
		}
	}
	if v.ObjectErrors > 0 {
		v.Pass = false
		if v.Fix == "" {
			v.Fix = objectsFix
		}
	}
}

const objectsFix = "stored objects would lose data or could no longer be updated: keep the served versions compatible with what is stored, " +
	"or migrate the objects (rewrite them under a version that keeps their data) before the revision is applied"

// writeObjectsText groups the findings by rule, with counts.
func writeObjectsText(w io.Writer, r *CRDReport) {
	if r.Objects == nil {
		return // no --crd-objects
	}
	byRule := map[string][]ObjectFinding{}
	var order []string
	for _, f := range r.Objects {
		if _, ok := byRule[f.Rule]; !ok {
			order = append(order, f.Rule)
		}
		byRule[f.Rule] = append(byRule[f.Rule], f)
	}
	slices.SortStableFunc(order, func(a, b string) int { return int(objectRuleByID[b].Level) - int(objectRuleByID[a].Level) })
	fmt.Fprintf(w, "stored objects: %d read, %d errors, %d warnings, %d infos\n", r.ObjectsJudged, r.Verdict.ObjectErrors, r.Verdict.ObjectWarnings, r.Verdict.ObjectInfos)
	for _, id := range order {
		fs := byRule[id]
		rule := objectRuleByID[id]
		fmt.Fprintf(w, "%s  %s (%d): %s\n", rule.Level, id, len(fs), rule.Reason)
		for _, f := range fs {
			fmt.Fprintf(w, "  %s: %s\n", objectWhere(f), f.Message)
		}
	}
}

func objectName(f ObjectFinding) string {
	name := f.Name
	if f.Namespace != "" {
		name = f.Namespace + "/" + name
	}
	return f.APIVersion + " " + f.Kind + " " + name
}

// objectWhere is an object's name and the finding's path.
func objectWhere(f ObjectFinding) string {
	return strings.TrimSpace(objectName(f) + " " + f.Path)
}
