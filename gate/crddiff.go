package gate

import (
	modelconv "github.com/modelgen/modelgen/conversion"

	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
)

// CRDChange is one difference between the base and the revision of a CRD.
type CRDChange struct {
	ID      string `json:"id"`
	Level   Level  `json:"level"`
	CRD     string `json:"crd"`
	Version string `json:"version,omitempty"` // the API version, for version and schema changes
	Path    string `json:"path,omitempty"`    // ".spec.lines[].state"; empty for CRD-level changes
	Message string `json:"message"`
	Reason  string `json:"reason"` // what the API server does, from the rule table
}

// crdDiffer collects the changes of one run; the number of schema pairs it
// compares is bounded (Limits.MaxSchemaPairs).
type crdDiffer struct {
	ratchets bool // the API server ratchets validation (Kubernetes >= 1.30)
	maxPairs int
	pairs    int
	changes  []CRDChange
	crd      string
	version  string
}

func (d *crdDiffer) limitError() error {
	return &LimitError{Msg: fmt.Sprintf("the CRDs need more than %d schema comparisons", d.maxPairs), Flag: "max-schema-pairs"}
}

// emit records a change of rule id at path. inCombinator names the allOf,
// anyOf, oneOf or not the path is under ("" outside): the server ratchets
// there only while the whole value is unchanged; below Kubernetes 1.30 it
// ratchets nothing.
func (d *crdDiffer) emit(id, path, inCombinator string, args ...any) {
	rule := crdRuleByID[id]
	level, msg := rule.Level, fmt.Sprintf(rule.Format, args...)
	if rule.Ratcheted {
		switch {
		case !d.ratchets:
			level, msg = LevelError, msg+" (the target Kubernetes does not ratchet validation: updates of stored objects are refused)"
		case inCombinator != "":
			msg += " (under " + inCombinator + ": ratcheted only while the whole value at " + cmpOr(combinatorOwner(path), ".") + " is unchanged)"
		}
	}
	d.changes = append(d.changes, CRDChange{ID: id, Level: level, CRD: d.crd, Version: d.version, Path: path, Message: msg, Reason: rule.Reason})
}

// compareCRDs pairs the CRDs of both sides by name and compares each pair.
func (d *crdDiffer) compareCRDs(base, rev []crdSource) {
	byName := func(list []crdSource) map[string]*apiext.CustomResourceDefinition {
		m := map[string]*apiext.CustomResourceDefinition{}
		for _, c := range list {
			m[c.crd.Name] = c.crd
		}
		return m
	}
	b, r := byName(base), byName(rev)
	names := slices.Sorted(maps.Keys(b))
	for n := range maps.Keys(r) {
		if _, ok := b[n]; !ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	for _, n := range names {
		d.crd, d.version = n, ""
		switch {
		case r[n] == nil:
			d.emit(CRDRuleRemoved, "", "", code(n))
		case b[n] == nil:
			d.emit(CRDRuleAdded, "", "", code(n))
		default:
			d.compareCRD(b[n], r[n])
		}
		if d.pairs > d.maxPairs {
			return
		}
	}
}

func (d *crdDiffer) compareCRD(b, r *apiext.CustomResourceDefinition) {
	bs, rs := b.Spec, r.Spec
	if bs.Scope != rs.Scope {
		d.emit(CRDRuleScopeChanged, "", "", code(string(bs.Scope)), code(string(rs.Scope)))
	}
	for _, n := range []struct{ field, old, cur string }{
		{"kind", bs.Names.Kind, rs.Names.Kind}, {"plural", bs.Names.Plural, rs.Names.Plural},
		{"singular", bs.Names.Singular, rs.Names.Singular}, {"listKind", bs.Names.ListKind, rs.Names.ListKind},
	} {
		if n.old != n.cur {
			d.emit(CRDRuleNameChanged, "", "", n.field, code(n.old), code(n.cur))
		}
	}
	d.compareSets(bs.Names.ShortNames, rs.Names.ShortNames, CRDRuleShortNameRemoved, CRDRuleShortNameAdded)
	d.compareSets(bs.Names.Categories, rs.Names.Categories, CRDRuleCategoryRemoved, CRDRuleCategoryAdded)
	d.compareStrategy(b, r)
	d.compareVersions(b, r)
	d.compareConversion(b, r)
	d.compareCoverage(b, r)
}

const webhook = string(apiext.WebhookConverter)

// compareStrategy judges a change of spec.conversion.strategy. None →
// Webhook is additive when the generated conversion says it covers every
// version (crd-conversion-webhook-added); Webhook → None between versions
// that differ is crd-conversion-dropped; any other change is
// crd-conversion-strategy-changed.
func (d *crdDiffer) compareStrategy(b, r *apiext.CustomResourceDefinition) {
	old, cur := conversionStrategy(b.Spec), conversionStrategy(r.Spec)
	if old == cur {
		return
	}
	covered, known := conversionCovers(r)
	switch {
	case old == webhook && cur == string(apiext.NoneConverter) && len(differing(r)) > 0:
		d.emit(CRDRuleConversionDropped, "", "", codes(differing(r)))
	case cur == webhook && known && len(uncovered(r, covered)) == 0:
		d.emit(CRDRuleConversionAdded, "", "", codes(slices.Sorted(maps.Keys(covered))))
	default:
		d.emit(CRDRuleConversionChanged, "", "", code(old), code(cur))
	}
}

// conversionCovers is the set of versions the CRD's generated conversion
// converts (modelconv.VersionsAnnotation); known is false when the CRD does
// not say (no annotation).
func conversionCovers(crd *apiext.CustomResourceDefinition) (covered map[string]bool, known bool) {
	v, ok := crd.Annotations[modelconv.VersionsAnnotation]
	if !ok {
		return nil, false
	}
	covered = map[string]bool{}
	for _, name := range strings.Split(v, ",") {
		if name = strings.TrimSpace(name); name != "" {
			covered[name] = true
		}
	}
	return covered, true
}

// uncovered lists the versions the CRD serves or stores that covered lacks.
func uncovered(crd *apiext.CustomResourceDefinition, covered map[string]bool) []string {
	var out []string
	for _, v := range crd.Spec.Versions {
		if (v.Served || v.Storage) && !covered[v.Name] {
			out = append(out, v.Name)
		}
	}
	return out
}

// differing lists the versions the CRD serves or stores when their schemas
// are not all the same (nil when they are).
func differing(crd *apiext.CustomResourceDefinition) []string {
	var names []string
	var first *apiext.CustomResourceValidation
	same := true
	for _, v := range crd.Spec.Versions {
		if !v.Served && !v.Storage {
			continue
		}
		names = append(names, v.Name)
		if first == nil {
			first = v.Schema
		} else if !reflect.DeepEqual(first, v.Schema) {
			same = false
		}
	}
	if same {
		return nil
	}
	return names
}

// compareCoverage reports each version the revision serves or stores that
// its generated conversion does not convert, unless the base, converted by
// the webhook too, already left it out.
func (d *crdDiffer) compareCoverage(b, r *apiext.CustomResourceDefinition) {
	if conversionStrategy(r.Spec) != webhook {
		return
	}
	covered, known := conversionCovers(r)
	if !known {
		return
	}
	before := map[string]bool{}
	if bCovered, bKnown := conversionCovers(b); bKnown && conversionStrategy(b.Spec) == webhook {
		for _, v := range uncovered(b, bCovered) {
			before[v] = true
		}
	}
	list := codes(slices.Sorted(maps.Keys(covered)))
	for _, v := range uncovered(r, covered) {
		if !before[v] {
			d.version = v
			d.emit(CRDRuleConversionUncovered, "", "", code(v), list)
		}
	}
	d.version = ""
}

func conversionStrategy(s apiext.CustomResourceDefinitionSpec) string {
	if s.Conversion == nil || s.Conversion.Strategy == "" {
		return string(apiext.NoneConverter)
	}
	return string(s.Conversion.Strategy)
}

func (d *crdDiffer) compareSets(old, cur []string, removedID, addedID string) {
	removed, added := setDiff(old, cur)
	for _, s := range removed {
		d.emit(removedID, "", "", code(s))
	}
	for _, s := range added {
		d.emit(addedID, "", "", code(s))
	}
}

func storageVersion(crd *apiext.CustomResourceDefinition) string {
	for _, v := range crd.Spec.Versions {
		if v.Storage {
			return v.Name
		}
	}
	return ""
}

func served(crd *apiext.CustomResourceDefinition, name string) bool {
	v := findVersion(crd, name)
	return v != nil && v.Served
}

func findVersion(crd *apiext.CustomResourceDefinition, name string) *apiext.CustomResourceDefinitionVersion {
	for i := range crd.Spec.Versions {
		if crd.Spec.Versions[i].Name == name {
			return &crd.Spec.Versions[i]
		}
	}
	return nil
}

// compareVersions judges each version of the base against the same version
// of the revision: served, storage, subresources and the schema.
func (d *crdDiffer) compareVersions(b, r *apiext.CustomResourceDefinition) {
	bStore, rStore := storageVersion(b), storageVersion(r)
	for _, bv := range b.Spec.Versions {
		d.version = bv.Name
		rv := findVersion(r, bv.Name)
		switch {
		case rv == nil && bv.Name == bStore:
			d.emit(CRDRuleStorageVersionRemoved, "", "", code(bv.Name))
			continue
		case rv == nil && bv.Served:
			d.emit(CRDRuleVersionRemoved, "", "", code(bv.Name))
			continue
		case rv == nil:
			continue
		}
		switch {
		case bv.Served && !rv.Served:
			d.emit(CRDRuleVersionUnserved, "", "", code(bv.Name))
		case !bv.Served && rv.Served:
			d.emit(CRDRuleVersionServed, "", "", code(bv.Name))
		}
		if rv.Deprecated && !bv.Deprecated {
			d.emit(CRDRuleVersionDeprecated, "", "", code(bv.Name))
		}
		d.compareSubresources(bv.Subresources, rv.Subresources)
		d.compareSelectableFields(bv.SelectableFields, rv.SelectableFields)
		d.compareColumns(bv.AdditionalPrinterColumns, rv.AdditionalPrinterColumns)
		if bv.Served || bv.Name == bStore {
			d.compareSchema(bv.Schema.OpenAPIV3Schema, rv.Schema.OpenAPIV3Schema, "", "")
		}
	}
	d.version = ""
	for _, rv := range r.Spec.Versions {
		if findVersion(b, rv.Name) != nil {
			continue
		}
		d.version = rv.Name
		// the versions of the base still served beside the new one
		var beside []string
		for _, bv := range b.Spec.Versions {
			if bv.Served && served(r, bv.Name) {
				beside = append(beside, bv.Name)
			}
		}
		if rv.Served && len(beside) > 0 && conversionStrategy(r.Spec) == webhook {
			d.emit(CRDRuleVersionAddedConverted, "", "", code(rv.Name), codes(beside))
		} else {
			d.emit(CRDRuleVersionAdded, "", "", code(rv.Name))
		}
	}
	d.version = ""
	if bStore != rStore && findVersion(r, bStore) != nil {
		d.emit(CRDRuleStorageVersionChanged, "", "", code(bStore), code(rStore))
	}
}

func (d *crdDiffer) compareSubresources(b, r *apiext.CustomResourceSubresources) {
	var bStatus, rStatus bool
	var bScale, rScale *apiext.CustomResourceSubresourceScale
	if b != nil {
		bStatus, bScale = b.Status != nil, b.Scale
	}
	if r != nil {
		rStatus, rScale = r.Status != nil, r.Scale
	}
	switch {
	case bStatus && !rStatus:
		d.emit(CRDRuleStatusRemoved, "", "")
	case !bStatus && rStatus:
		d.emit(CRDRuleStatusAdded, "", "")
	}
	switch {
	case bScale != nil && rScale == nil:
		d.emit(CRDRuleScaleRemoved, "", "")
	case bScale == nil && rScale != nil:
		d.emit(CRDRuleScaleAdded, "", "")
	case bScale != nil:
		for _, p := range []struct{ name, old, cur string }{
			{"specReplicasPath", bScale.SpecReplicasPath, rScale.SpecReplicasPath},
			{"statusReplicasPath", bScale.StatusReplicasPath, rScale.StatusReplicasPath},
			{"labelSelectorPath", valueOf(bScale.LabelSelectorPath), valueOf(rScale.LabelSelectorPath)},
		} {
			if p.old != p.cur {
				d.emit(CRDRuleScaleChanged, "", "", p.name, code(p.old), code(p.cur))
			}
		}
	}
}

// compareSelectableFields pairs selectable fields by their jsonPath: one
// whose path changed is removed (and another added).
func (d *crdDiffer) compareSelectableFields(b, r []apiext.SelectableField) {
	paths := func(list []apiext.SelectableField) []string {
		out := make([]string, 0, len(list))
		for _, f := range list {
			out = append(out, f.JSONPath)
		}
		return out
	}
	removed, added := setDiff(paths(b), paths(r))
	for _, p := range removed {
		d.emit(CRDRuleSelectableRemoved, "", "", code(p))
	}
	for _, p := range added {
		d.emit(CRDRuleSelectableAdded, "", "", code(p))
	}
}

// compareColumns pairs printer columns by name.
func (d *crdDiffer) compareColumns(b, r []apiext.CustomResourceColumnDefinition) {
	byName := func(list []apiext.CustomResourceColumnDefinition) map[string]apiext.CustomResourceColumnDefinition {
		m := map[string]apiext.CustomResourceColumnDefinition{}
		for _, c := range list {
			m[c.Name] = c
		}
		return m
	}
	old, cur := byName(b), byName(r)
	for _, c := range b {
		now, ok := cur[c.Name]
		if !ok {
			d.emit(CRDRuleColumnRemoved, "", "", code(c.Name))
			continue
		}
		for _, f := range []struct{ name, was, is string }{
			{"jsonPath", c.JSONPath, now.JSONPath}, {"type", c.Type, now.Type}, {"format", c.Format, now.Format},
			{"priority", strconv.Itoa(int(c.Priority)), strconv.Itoa(int(now.Priority))},
		} {
			if f.was != f.is {
				d.emit(CRDRuleColumnChanged, "", "", code(c.Name), f.name, code(f.was), code(f.is))
			}
		}
	}
	for _, c := range r {
		if _, ok := old[c.Name]; !ok {
			d.emit(CRDRuleColumnAdded, "", "", code(c.Name))
		}
	}
}

func valueOf[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// compareConversion reports, for a revision whose versions convert with
// None, each field one served version has and the storage version lacks,
// or the other way round, unless the base already had the same gap. With
// None an object is only relabelled: a field of the storage version that a
// served version lacks is pruned when the object is read (and written back)
// through it; a field of a served version that the storage version lacks is
// pruned on every write through that version.
func (d *crdDiffer) compareConversion(b, r *apiext.CustomResourceDefinition) {
	if conversionStrategy(r.Spec) != string(apiext.NoneConverter) {
		return
	}
	known := map[conversionGap]bool{}
	if conversionStrategy(b.Spec) == string(apiext.NoneConverter) {
		for _, gap := range d.conversionGaps(b, storageVersion(b)) {
			known[gap] = true
		}
	}
	gaps := d.conversionGaps(r, storageVersion(r))
	if old := storageVersion(b); old != storageVersion(r) && findVersion(r, old) != nil {
		// objects stored before the move keep the old storage version's
		// fields until they are migrated: reads through a version that
		// lacks one prune it
		for _, gap := range d.conversionGaps(r, old) {
			if !gap.write {
				gaps = append(gaps, gap)
			}
		}
	}
	for _, gap := range gaps {
		if known[gap] {
			continue
		}
		d.version = gap.version
		if gap.write {
			d.emit(CRDRuleConversionPrunes, gap.path, "", code(gap.path), "this version", "storage version "+code(gap.storage), "written through this version")
		} else {
			d.emit(CRDRuleConversionPrunes, gap.path, "", code(gap.path), "storage version "+code(gap.storage), "this version", "read or written through this version")
		}
	}
	d.version = ""
}

// conversionGap is a field of version (write) or of the storage version
// (!write) that the other one lacks.
type conversionGap struct {
	version, storage, path string
	write                  bool
}

// conversionGaps lists the gaps between the version storage of crd and
// each other served version.
func (d *crdDiffer) conversionGaps(crd *apiext.CustomResourceDefinition, storage string) []conversionGap {
	store := findVersion(crd, storage)
	if store == nil {
		return nil
	}
	stored := d.prunedBy(store.Schema.OpenAPIV3Schema)
	var gaps []conversionGap
	for _, v := range crd.Spec.Versions {
		if !v.Served || v.Name == store.Name {
			continue
		}
		served := d.prunedBy(v.Schema.OpenAPIV3Schema)
		for _, p := range stored.paths {
			if !served.keeps(p) && (parentPath(p) == "" || served.keeps(parentPath(p))) {
				gaps = append(gaps, conversionGap{v.Name, store.Name, p, false})
			}
		}
		for _, p := range served.paths {
			if !stored.keeps(p) && (parentPath(p) == "" || stored.keeps(parentPath(p))) {
				gaps = append(gaps, conversionGap{v.Name, store.Name, p, true})
			}
		}
	}
	return gaps
}

// fieldSet is what pruning by one schema keeps: its structural fields
// (paths, in order), and the places that keep unknown fields
// (x-kubernetes-preserve-unknown-fields: everything below is kept).
type fieldSet struct {
	paths     []string
	has       map[string]bool
	preserved map[string]bool
}

func (d *crdDiffer) prunedBy(s *apiext.JSONSchemaProps) fieldSet {
	fs := fieldSet{has: map[string]bool{}, preserved: map[string]bool{}}
	d.fieldPaths(s, "", &fs)
	return fs
}

// keeps says whether pruning keeps the field at p.
func (fs fieldSet) keeps(p string) bool {
	if fs.has[p] {
		return true
	}
	for a := p; a != ""; {
		a = parentPath(a)
		if fs.preserved[a] {
			return true
		}
	}
	return false
}

// fieldPaths lists the structural fields of a schema (what pruning keeps),
// items ([]) and map values ({}) included.
func (d *crdDiffer) fieldPaths(s *apiext.JSONSchemaProps, path string, fs *fieldSet) {
	d.pairs++
	if s == nil || d.pairs > d.maxPairs {
		return
	}
	if s.XPreserveUnknownFields != nil && *s.XPreserveUnknownFields {
		fs.preserved[path] = true
	}
	add := func(p string, child *apiext.JSONSchemaProps) {
		fs.paths = append(fs.paths, p)
		fs.has[p] = true
		d.fieldPaths(child, p, fs)
	}
	for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
		child := s.Properties[name]
		add(path+"."+name, &child)
	}
	if s.Items != nil && s.Items.Schema != nil {
		add(path+"[]", s.Items.Schema)
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
		add(path+"{}", s.AdditionalProperties.Schema)
	}
}

// parentPath is the path of the nearest enclosing field, item or map value
// ("" for a top-level field).
func parentPath(p string) string {
	i := strings.LastIndexAny(p, ".[{")
	if i <= 0 {
		return ""
	}
	return p[:i]
}

// compareSchema compares the schemas at one position of both versions.
func (d *crdDiffer) compareSchema(b, r *apiext.JSONSchemaProps, path, comb string) {
	d.pairs++
	if d.pairs > d.maxPairs || b == nil || r == nil {
		return
	}
	at := path
	if at == "" {
		at = "."
	}
	if b.Type != r.Type {
		d.emit(CRDRuleTypeChanged, at, comb, code(b.Type), code(r.Type))
	}
	d.compareRequired(b, r, path, comb)
	d.compareEnum(b, r, at, comb)
	d.compareStrings(b, r, at, comb)
	d.compareBounds(b, r, at, comb)
	d.compareFlags(b, r, at, comb)
	d.compareDefault(b, r, at, comb)
	d.compareRules(b.XValidations, r.XValidations, at, comb)
	d.compareUnclassified(b, r, at, comb)
	d.compareChildren(b, r, path, comb)
}

func (d *crdDiffer) compareRequired(b, r *apiext.JSONSchemaProps, path, comb string) {
	removed, added := setDiff(b.Required, r.Required)
	for _, name := range added {
		p := path + "." + name
		if prop, ok := r.Properties[name]; ok && prop.Default != nil && comb == "" {
			d.emit(CRDRuleRequiredAddedDefaulted, p, comb, code(name))
			continue
		}
		d.emit(CRDRuleRequiredAdded, p, comb, code(name))
	}
	for _, name := range removed {
		d.emit(CRDRuleRequiredRemoved, path+"."+name, comb, code(name))
	}
}

func (d *crdDiffer) compareEnum(b, r *apiext.JSONSchemaProps, at, comb string) {
	old, cur := enumValues(b.Enum), enumValues(r.Enum)
	switch {
	case len(old) == 0 && len(cur) > 0:
		d.emit(CRDRuleEnumAdded, at, comb, strings.Join(cur, ", "))
	case len(old) > 0 && len(cur) == 0:
		d.emit(CRDRuleEnumRemoved, at, comb, strings.Join(old, ", "))
	case len(old) > 0:
		removed, added := setDiff(old, cur)
		if len(removed) > 0 {
			d.emit(CRDRuleEnumNarrowed, at, comb, strings.Join(removed, ", "))
		}
		if len(added) > 0 {
			d.emit(CRDRuleEnumWidened, at, comb, strings.Join(added, ", "))
		}
	}
}

// enumValues renders enum values as compact JSON, so 1 and "1" differ.
func enumValues(list []apiext.JSON) []string {
	out := make([]string, 0, len(list))
	for _, v := range list {
		out = append(out, compactJSON(v.Raw))
	}
	return out
}

func compactJSON(raw []byte) string {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return string(raw)
	}
	out, _ := json.Marshal(v)
	return string(out)
}

func (d *crdDiffer) compareStrings(b, r *apiext.JSONSchemaProps, at, comb string) {
	for _, k := range []struct {
		old, cur              string
		added, changed, remov string
	}{
		{b.Pattern, r.Pattern, CRDRulePatternAdded, CRDRulePatternChanged, CRDRulePatternRemoved},
		{b.Format, r.Format, CRDRuleFormatAdded, CRDRuleFormatChanged, CRDRuleFormatRemoved},
	} {
		switch {
		case k.old == k.cur:
		case k.old == "":
			d.emit(k.added, at, comb, code(k.cur))
		case k.cur == "":
			d.emit(k.remov, at, comb, code(k.old))
		default:
			d.emit(k.changed, at, comb, code(k.old), code(k.cur))
		}
	}
}

// compareBounds judges each numeric bound: an upper bound tightens when it
// appears or goes down, a lower bound when it appears or goes up.
func (d *crdDiffer) compareBounds(b, r *apiext.JSONSchemaProps, at, comb string) {
	f := func(p *float64) *float64 { return p }
	i := func(p *int64) *float64 {
		if p == nil {
			return nil
		}
		v := float64(*p)
		return &v
	}
	for _, k := range []struct {
		id       string
		old, cur *float64
		upper    bool
	}{
		{"maximum", f(b.Maximum), f(r.Maximum), true}, {"minimum", f(b.Minimum), f(r.Minimum), false},
		{"max-length", i(b.MaxLength), i(r.MaxLength), true}, {"min-length", i(b.MinLength), i(r.MinLength), false},
		{"max-items", i(b.MaxItems), i(r.MaxItems), true}, {"min-items", i(b.MinItems), i(r.MinItems), false},
		{"max-properties", i(b.MaxProperties), i(r.MaxProperties), true}, {"min-properties", i(b.MinProperties), i(r.MinProperties), false},
	} {
		d.compareBound(k.id, k.old, k.cur, k.upper, at, comb)
	}
	d.compareFlag(boundRuleID("exclusive-maximum", true), boundRuleID("exclusive-maximum", false), b.ExclusiveMaximum, r.ExclusiveMaximum, at, comb)
	d.compareFlag(boundRuleID("exclusive-minimum", true), boundRuleID("exclusive-minimum", false), b.ExclusiveMinimum, r.ExclusiveMinimum, at, comb)
	switch old, cur := b.MultipleOf, r.MultipleOf; {
	case old == nil && cur == nil:
	case cur == nil:
		d.emit(boundRuleID("multiple-of", false), at, comb, "removed (was "+num(*old)+")")
	case old == nil:
		d.emit(boundRuleID("multiple-of", true), at, comb, "added: "+num(*cur))
	case *old != *cur:
		// a multiple of old is a multiple of cur when cur divides old
		q := *old / *cur
		d.emit(boundRuleID("multiple-of", q != float64(int64(q))), at, comb, num(*old)+" → "+num(*cur))
	}
}

func (d *crdDiffer) compareBound(id string, old, cur *float64, upper bool, at, comb string) {
	switch {
	case old == nil && cur == nil:
	case cur == nil:
		d.emit(boundRuleID(id, false), at, comb, "removed (was "+num(*old)+")")
	case old == nil:
		d.emit(boundRuleID(id, true), at, comb, "added: "+num(*cur))
	case *old != *cur:
		d.emit(boundRuleID(id, (*cur < *old) == upper), at, comb, num(*old)+" → "+num(*cur))
	}
}

func (d *crdDiffer) compareFlag(tightened, loosened string, old, cur bool, at, comb string) {
	switch {
	case !old && cur:
		d.emit(tightened, at, comb, "false → true")
	case old && !cur:
		d.emit(loosened, at, comb, "true → false")
	}
}

func num(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }

func (d *crdDiffer) compareFlags(b, r *apiext.JSONSchemaProps, at, comb string) {
	on := func(p *bool) bool { return p != nil && *p }
	pairs := []struct {
		old, cur       bool
		removed, added string
	}{
		{b.Nullable, r.Nullable, CRDRuleNullableRemoved, CRDRuleNullableAdded},
		{on(b.XPreserveUnknownFields), on(r.XPreserveUnknownFields), CRDRulePreserveUnknownRemoved, CRDRulePreserveUnknownAdded},
		{b.XIntOrString, r.XIntOrString, CRDRuleIntOrStringRemoved, CRDRuleIntOrStringAdded},
		{b.UniqueItems, r.UniqueItems, CRDRuleUniqueItemsRemoved, CRDRuleUniqueItemsAdded},
	}
	for _, p := range pairs {
		switch {
		case p.old && !p.cur:
			d.emit(p.removed, at, comb)
		case !p.old && p.cur:
			d.emit(p.added, at, comb)
		}
	}
	if b.XEmbeddedResource != r.XEmbeddedResource {
		d.emit(CRDRuleEmbeddedResourceChanged, at, comb, b.XEmbeddedResource, r.XEmbeddedResource)
	}
	// an array without x-kubernetes-list-type is atomic
	if old, cur := cmpOr(valueOf(b.XListType), "atomic"), cmpOr(valueOf(r.XListType), "atomic"); old != cur {
		id := CRDRuleListTypeChanged
		if cur == "atomic" {
			id = CRDRuleListTypeLoosened
		}
		d.emit(id, at, comb, code(old), code(cur))
	}
	if old, cur := strings.Join(b.XListMapKeys, ","), strings.Join(r.XListMapKeys, ","); old != cur {
		d.emit(CRDRuleListMapKeysChanged, at, comb, code(old), code(cur))
	}
	if old, cur := cmpOr(valueOf(b.XMapType), "granular"), cmpOr(valueOf(r.XMapType), "granular"); old != cur {
		d.emit(CRDRuleMapTypeChanged, at, comb, code(old), code(cur))
	}
}

func cmpOr(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return s
}

func (d *crdDiffer) compareDefault(b, r *apiext.JSONSchemaProps, at, comb string) {
	switch {
	case b.Default == nil && r.Default == nil:
	case b.Default == nil:
		d.emit(CRDRuleDefaultAdded, at, comb, code(compactJSON(r.Default.Raw)))
	case r.Default == nil:
		d.emit(CRDRuleDefaultRemoved, at, comb, code(compactJSON(b.Default.Raw)))
	case compactJSON(b.Default.Raw) != compactJSON(r.Default.Raw):
		d.emit(CRDRuleDefaultChanged, at, comb, code(compactJSON(b.Default.Raw)), code(compactJSON(r.Default.Raw)))
	}
}

var oldSelfRef = regexp.MustCompile(`\boldSelf\b`)

func usesOldSelf(rule string) bool { return oldSelfRef.MatchString(rule) }

// compareRules matches the CEL rules of both sides by their text; rules
// left over on both sides are paired in order as changed, the rest are
// added or removed. Every message shows the rule texts.
func (d *crdDiffer) compareRules(b, r apiext.ValidationRules, at, comb string) {
	used := make([]bool, len(r))
	var unmatched []apiext.ValidationRule
	for _, old := range b {
		j := -1
		for k, x := range r {
			if !used[k] && x.Rule == old.Rule {
				j = k
				break
			}
		}
		if j < 0 {
			unmatched = append(unmatched, old)
			continue
		}
		used[j] = true
		d.compareRuleDetails(old, r[j], at, comb)
	}
	var fresh []apiext.ValidationRule
	for j, cur := range r {
		if !used[j] {
			fresh = append(fresh, cur)
		}
	}
	n := min(len(unmatched), len(fresh))
	for k := range n {
		id := CRDRuleRuleChanged
		if usesOldSelf(fresh[k].Rule) {
			id = CRDRuleTransitionRuleChanged
		}
		d.emit(id, at, comb, code(unmatched[k].Rule), code(fresh[k].Rule))
	}
	for _, old := range unmatched[n:] {
		d.emit(CRDRuleRuleRemoved, at, comb, code(old.Rule))
	}
	for _, cur := range fresh[n:] {
		id := CRDRuleRuleAdded
		if usesOldSelf(cur.Rule) {
			id = CRDRuleTransitionRuleAdded
		}
		d.emit(id, at, comb, code(cur.Rule))
	}
}

func (d *crdDiffer) compareRuleDetails(old, cur apiext.ValidationRule, at, comb string) {
	rule := code(cur.Rule)
	if old.Message != cur.Message {
		d.emit(CRDRuleRuleMessageChanged, at, comb, rule, "message", strconv.Quote(old.Message), strconv.Quote(cur.Message))
	}
	if old.MessageExpression != cur.MessageExpression {
		d.emit(CRDRuleRuleMessageChanged, at, comb, rule, "messageExpression", code(old.MessageExpression), code(cur.MessageExpression))
	}
	if valueOf(old.Reason) != valueOf(cur.Reason) {
		d.emit(CRDRuleRuleReasonChanged, at, comb, rule, code(string(valueOf(old.Reason))), code(string(valueOf(cur.Reason))))
	}
	if old.FieldPath != cur.FieldPath {
		d.emit(CRDRuleRuleFieldPathChanged, at, comb, rule, code(old.FieldPath), code(cur.FieldPath))
	}
	switch was, is := valueOf(old.OptionalOldSelf), valueOf(cur.OptionalOldSelf); {
	case !was && is:
		d.emit(CRDRuleOptionalOldSelfAdded, at, comb, rule)
	case was && !is:
		d.emit(CRDRuleOptionalOldSelfRemoved, at, comb, rule)
	}
}

// compareUnclassified fails closed on a keyword no rule covers: it compares
// what is left of both schemas once the judged keywords, the children and
// the documentation (description, title, example, externalDocs) are set
// aside.
func (d *crdDiffer) compareUnclassified(b, r *apiext.JSONSchemaProps, at, comb string) {
	old, cur := unjudged(b), unjudged(r)
	for _, k := range slices.Sorted(maps.Keys(mergeKeys(old, cur))) {
		if o, c := compactJSONValue(old[k]), compactJSONValue(cur[k]); o != c {
			d.emit(CRDRuleSchemaChanged, at, comb, k, code(o), code(c))
		}
	}
}

func mergeKeys(a, b map[string]any) map[string]bool {
	m := map[string]bool{}
	for k := range a {
		m[k] = true
	}
	for k := range b {
		m[k] = true
	}
	return m
}

func compactJSONValue(v any) string {
	if v == nil {
		return "(none)"
	}
	out, _ := json.Marshal(v)
	return string(out)
}

func unjudged(s *apiext.JSONSchemaProps) map[string]any {
	c := *s
	c.Description, c.Title, c.Example, c.ExternalDocs = "", "", nil, nil
	c.Type, c.Required, c.Enum, c.Pattern, c.Format = "", nil, nil, "", ""
	c.Maximum, c.Minimum, c.MultipleOf, c.ExclusiveMaximum, c.ExclusiveMinimum = nil, nil, nil, false, false
	c.MaxLength, c.MinLength, c.MaxItems, c.MinItems, c.MaxProperties, c.MinProperties = nil, nil, nil, nil, nil, nil
	c.Nullable, c.XPreserveUnknownFields, c.XIntOrString, c.UniqueItems, c.XEmbeddedResource = false, nil, false, false, false
	c.XListType, c.XListMapKeys, c.XMapType, c.Default, c.XValidations = nil, nil, nil, nil, nil
	c.Properties, c.Items, c.AdditionalProperties, c.AllOf, c.AnyOf, c.OneOf, c.Not = nil, nil, nil, nil, nil, nil, nil
	raw, err := json.Marshal(c)
	m := map[string]any{}
	if err == nil {
		_ = json.Unmarshal(raw, &m)
	}
	return m
}

// compareChildren walks into properties, items, additionalProperties and
// the combinators, by position.
func (d *crdDiffer) compareChildren(b, r *apiext.JSONSchemaProps, path, comb string) {
	at := cmpOr(path, ".")
	preserved := r.XPreserveUnknownFields != nil && *r.XPreserveUnknownFields
	for _, name := range slices.Sorted(maps.Keys(mergeProps(b.Properties, r.Properties))) {
		p := path + "." + name
		old, inOld := b.Properties[name]
		cur, inCur := r.Properties[name]
		switch {
		case inOld && inCur:
			d.compareSchema(&old, &cur, p, comb)
		case inOld && comb == "" && !preserved:
			d.emit(CRDRuleFieldRemoved, p, comb, code(p))
		case inOld:
			// under a combinator the property only validated; with
			// x-kubernetes-preserve-unknown-fields it is kept: either way
			// what goes is validation
			d.compareSchema(&old, &apiext.JSONSchemaProps{Type: old.Type}, p, comb)
		case comb != "":
			// a property under a combinator adds only validation
			d.compareSchema(&apiext.JSONSchemaProps{Type: cur.Type}, &cur, p, comb)
		default:
			d.fieldAdded(b, &cur, path, p, comb)
		}
	}
	d.compareChild(itemsOf(b), itemsOf(r), path+"[]", at, "items", comb)
	bAdd, rAdd := additionalOf(b), additionalOf(r)
	switch {
	case bAdd != nil && rAdd == nil:
		d.emit(CRDRuleAdditionalPropsRemoved, at, comb)
	case bAdd == nil && rAdd != nil:
		d.emit(CRDRuleAdditionalPropsAdded, at, comb)
	default:
		d.compareSchema(bAdd, rAdd, path+"{}", comb)
	}
	for _, c := range []struct {
		name     string
		old, cur []apiext.JSONSchemaProps
	}{{"allOf", b.AllOf, r.AllOf}, {"anyOf", b.AnyOf, r.AnyOf}, {"oneOf", b.OneOf, r.OneOf}} {
		if len(c.old) != len(c.cur) {
			d.emit(CRDRuleCombinatorChanged, at, comb, c.name, len(c.old), len(c.cur))
		}
		for k := range min(len(c.old), len(c.cur)) {
			d.compareSchema(&c.old[k], &c.cur[k], fmt.Sprintf("%s<%s[%d]>", path, c.name, k), c.name)
		}
	}
	switch {
	case (b.Not == nil) != (r.Not == nil):
		d.emit(CRDRuleCombinatorChanged, at, comb, "not", boolInt(b.Not != nil), boolInt(r.Not != nil))
	case b.Not != nil:
		d.compareSchema(b.Not, r.Not, path+"<not>", "not")
	}
}

// fieldAdded judges a property the revision adds at p under parent b. A
// field stored objects may already hold is not new to them: the base kept
// it as an unknown field (x-kubernetes-preserve-unknown-fields), or it is
// the object's own metadata.name or metadata.generateName. Its constraints
// then apply to stored values (ratcheted, so a warning from Kubernetes
// 1.30), and an object schema that does not keep unknown fields prunes
// what stored values hold below it.
func (d *crdDiffer) fieldAdded(b, cur *apiext.JSONSchemaProps, parent, p, comb string) {
	var held string
	baseline := apiext.JSONSchemaProps{}
	switch {
	case b.XPreserveUnknownFields != nil && *b.XPreserveUnknownFields:
		held = "the base kept it as an unknown field"
		yes := true
		baseline.XPreserveUnknownFields = &yes
	case parent == ".metadata" && (p == ".metadata.name" || p == ".metadata.generateName"):
		held = "every stored object has its metadata"
		baseline.Type = "string"
	default:
		d.emit(CRDRuleFieldAdded, p, comb, code(p))
		return
	}
	if held == "the base kept it as an unknown field" && keepsLess(cur) {
		d.emit(CRDRuleFieldAddedPrunes, p, comb, code(p))
	}
	if constrains(cur, &baseline) {
		d.emit(CRDRuleFieldAddedHeld, p, comb, code(p), held)
		return
	}
	d.emit(CRDRuleFieldAdded, p, comb, code(p))
}

// keepsLess says whether pruning by s drops some of what a value kept as
// unknown may hold: s names the fields of an object, or of its items or
// map values, without keeping the others.
func keepsLess(s *apiext.JSONSchemaProps) bool {
	if s == nil || (s.XPreserveUnknownFields != nil && *s.XPreserveUnknownFields) {
		return false
	}
	if s.Type == "object" && additionalOf(s) == nil {
		return true
	}
	return keepsLess(itemsOf(s)) || keepsLess(additionalOf(s))
}

// constrains says whether s, its documentation set aside, allows less
// than baseline.
func constrains(s, baseline *apiext.JSONSchemaProps) bool {
	c := *s
	c.Description, c.Title, c.Example, c.ExternalDocs = "", "", nil, nil
	got, err1 := json.Marshal(c)
	want, err2 := json.Marshal(baseline)
	return err1 != nil || err2 != nil || string(got) != string(want)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (d *crdDiffer) compareChild(b, r *apiext.JSONSchemaProps, path, at, keyword, comb string) {
	switch {
	case b != nil && r != nil:
		d.compareSchema(b, r, path, comb)
	case b != nil || r != nil:
		d.emit(CRDRuleSchemaChanged, at, comb, keyword, code(presence(b)), code(presence(r)))
	}
}

func presence(s *apiext.JSONSchemaProps) string {
	if s == nil {
		return "(none)"
	}
	return "a schema"
}

func mergeProps(a, b map[string]apiext.JSONSchemaProps) map[string]bool {
	m := map[string]bool{}
	for k := range a {
		m[k] = true
	}
	for k := range b {
		m[k] = true
	}
	return m
}

func itemsOf(s *apiext.JSONSchemaProps) *apiext.JSONSchemaProps {
	if s.Items == nil {
		return nil
	}
	return s.Items.Schema
}

func additionalOf(s *apiext.JSONSchemaProps) *apiext.JSONSchemaProps {
	if s.AdditionalProperties == nil {
		return nil
	}
	if s.AdditionalProperties.Schema != nil {
		return s.AdditionalProperties.Schema
	}
	if s.AdditionalProperties.Allows {
		return &apiext.JSONSchemaProps{}
	}
	return nil
}

// combinatorOwner is the place whose schema holds the outermost combinator
// of path (".spec.a<anyOf[0]>.b" → ".spec.a").
func combinatorOwner(path string) string {
	if i := strings.Index(path, "<"); i >= 0 {
		return path[:i]
	}
	return path
}
