// Package schema turns the model into JSON schemas, once, for every output:
// controller-tools' CRD parser gives the structure of each type (ObjectMeta,
// Quantity, embedded structs, kubebuilder markers), and the validate
// constraints of the model are laid over it by the keyword registry, and
// the state machines the model resolved become enums and CEL transition
// rules. The CRD backend and the OpenAPI document both read the result, so
// they cannot drift apart.
package schema

import (
	"go/types"
	"math"
	"slices"
	"sort"

	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/modelgen/modelgen/model"
)

// Set holds the schemas of every type of a model for one target.
type Set struct {
	Model  *model.Model
	Target model.Target
	Parser *crd.Parser
	Diags  model.Diagnostics
	// Unvalidated maps the identity of each unvalidated variant (see
	// UnvalidatedSuffix) to its type.
	Unvalidated map[crd.TypeIdent]*model.Type

	byLink  map[string]*model.Type // controller-tools link -> model type
	differs map[*model.Type]bool   // the types with an unvalidated variant
}

// Ident is controller-tools' identity of a model type.
func Ident(t *model.Type) crd.TypeIdent {
	return crd.TypeIdent{Package: t.Pkg.Loaded, Name: t.Name}
}

// Options are the settings of controller-tools' parser that change the
// structure it gives types, as controller-gen's crd generator sets them.
type Options struct {
	// EmbeddedObjectMeta: an ObjectMeta below the root (a template's
	// metadata) gets labels, annotations, name, namespace and finalizers
	// (crd:generateEmbeddedObjectMeta=true), in the CRD target; the OpenAPI
	// document always describes ObjectMeta in full.
	EmbeddedObjectMeta bool
	// IgnoreUnexportedFields skips unexported struct fields
	// (crd:ignoreUnexportedFields=true).
	IgnoreUnexportedFields bool
}

// Build parses every type of the model and overlays its constraints and
// its state machines.
func Build(m *model.Model, target model.Target) *Set {
	return BuildWith(m, target, Options{})
}

// BuildWith is Build under parser options.
func BuildWith(m *model.Model, target model.Target, opts Options) *Set {
	p := &crd.Parser{Collector: m.Collector, Checker: m.Checker, AllowDangerousTypes: true, IgnoreUnexportedFields: opts.IgnoreUnexportedFields}
	p.GenerateEmbeddedObjectMeta = opts.EmbeddedObjectMeta && target == model.TargetCRD
	crd.AddKnownTypes(p)
	p.PackageOverrides["time"] = stdTime
	if target == model.TargetOpenAPI {
		openAPIKnownTypes(p)
	}
	s := &Set{Model: m, Target: target, Parser: p}
	for _, pk := range m.Packages {
		p.NeedPackage(pk.Loaded)
	}
	types := m.SortedTypes()
	for _, t := range types {
		jsonTags(t, p.Types[Ident(t)])
	}
	for _, t := range types {
		if !namedInterface(t) {
			p.NeedSchemaFor(Ident(t))
		}
	}
	for _, pk := range m.Packages {
		s.Diags.Add(pk.LoadErrors())
	}
	s.byLink = map[string]*model.Type{}
	for _, t := range types {
		s.byLink[crd.TypeRefLink(t.Pkg.Path, t.Name)] = t
	}
	s.namedBytes(types)
	// base: the schema of each struct with a validate tag, before the
	// overlay: a deep copy, since the overlay edits the parser's schemas in
	// place and the unvalidated variants are made by editing these copies
	// in place. For every other type the overlay gives what unvalidated
	// would make of its schema, so it gets no copy (see unvalidated).
	base := map[*model.Type]apiext.JSONSchemaProps{}
	for _, t := range types {
		if sc, ok := p.Schemata[Ident(t)]; ok && (copyEveryBase || validated(t)) {
			base[t] = *sc.DeepCopy()
		}
	}
	for _, t := range types {
		if t.TypeKind != model.TypeStruct {
			continue
		}
		sc := p.Schemata[Ident(t)]
		s.overlay(t, &sc)
		applyMachine(t, &sc, target)
		p.Schemata[Ident(t)] = sc
	}
	s.unvalidated(types, base)
	for _, t := range types {
		s.pointerEmbeds(t)
	}
	return s
}

// namedInterface reports a type declared as an interface (kyverno v1.19.1's
// `type Value any`). It has no schema, and controller-tools' parser says so
// at the declaration when a schema it builds refers to the type: a type no
// CRD and no document reaches is no error, as with controller-gen, which
// builds only the schemas its CRDs reach.
func namedInterface(t *model.Type) bool {
	if t.Pkg == nil || t.Pkg.Loaded == nil || t.Pkg.Loaded.Types == nil {
		return false
	}
	obj := t.Pkg.Loaded.Types.Scope().Lookup(t.Name)
	if obj == nil {
		return false
	}
	_, ok := obj.Type().Underlying().(*types.Interface)
	return ok
}

// copyEveryBase, set by a test, gives every type a pre-overlay copy, as
// before the bare schemas were shared: the test holds both builds equal.
var copyEveryBase bool

// stdTime gives time.Time the schema of its JSON form (an RFC 3339
// string, as metav1.Time), where controller-tools would describe its
// unexported fields.
func stdTime(p *crd.Parser, pkg *loader.Package) {
	p.Schemata[crd.TypeIdent{Name: "Time", Package: pkg}] = apiext.JSONSchemaProps{Type: "string", Format: "date-time"}
	p.AddPackage(pkg)
}

// Schema returns the (unflattened) schema of a type.
func (s *Set) Schema(t *model.Type) apiext.JSONSchemaProps {
	return s.Parser.Schemata[Ident(t)]
}

func (s *Set) overlay(t *model.Type, sc *apiext.JSONSchemaProps) {
	if s.Target == model.TargetOpenAPI {
		markNullable(t, sc)
	}
	defer s.goTypes(t, sc)
	for _, f := range t.Fields {
		if f.JSONName != "" && !explicitPresence(f) && model.UntaggedStructZeroFails(f) && !model.ResourceStatus(t, f) {
			// validator refuses the zero struct a missing field decodes to
			if _, ok := sc.Properties[f.JSONName]; ok {
				sc.Required = append(sc.Required, f.JSONName)
			}
			continue
		}
		if f.Validate == nil || f.JSONName == "" || f.Skip || f.Validate.Skip {
			continue
		}
		prop, ok := sc.Properties[f.JSONName]
		if !ok {
			continue
		}
		if !explicitPresence(f) {
			sc.Required = slices.DeleteFunc(sc.Required, func(n string) bool { return n == f.JSONName })
			if model.ZeroFails(f) {
				sc.Required = append(sc.Required, f.JSONName)
			}
		}
		s.applyLevel(t, f, sc, &prop, f.Validate.Root)
		sc.Properties[f.JSONName] = prop
	}
	sort.Strings(sc.Required)
	sc.Required = slices.Compact(sc.Required)
}

// goTypes narrows each property to what encoding/json accepts for its Go
// type, after the validate overlay so that only tighter bounds remain.
func (s *Set) goTypes(t *model.Type, sc *apiext.JSONSchemaProps) {
	for _, f := range t.Fields {
		if prop, ok := sc.Properties[f.JSONName]; ok && f.JSONName != "" && !f.Skip {
			arrayLength(&prop, f)
			typeRange(&prop, f.Type)
			float32Range(&prop, f.Type, s.Target)
			// a Go int is 64 bits wide (controller-tools leaves it
			// unformatted): int64 says so, or 1e300 passes the contract
			numberFormat(&prop, f.Type, s.Target)
			if s.Target == model.TargetOpenAPI && f.Type.Deref().Kind == model.KindBytes && prop.Pattern == "" {
				prop.Pattern = base64Pattern
			}
			sc.Properties[f.JSONName] = prop
		}
	}
}

// arrayLength bounds a Go array [N]T where encoding/json and validator
// decide a length. encoding/json decodes a shorter JSON array into it with
// zero values after it and drops the items past N, so the length alone
// refuses nothing (controller-gen bounds no array either); but when
// validator checks the elements (a dive without omit keyword) and refuses
// a zero element, fewer than N items fail: minItems N.
func arrayLength(s *apiext.JSONSchemaProps, f *model.Field) {
	t := f.Type.Deref()
	if t == nil || t.Kind != model.KindSlice || t.Len <= 0 || s.Type != "array" || f.Validate == nil || f.Validate.Skip {
		return
	}
	if lv := f.Validate.Root; lv.Type.Kind == model.KindSlice && model.ArrayZeroFails(lv) {
		n := int64(t.Len)
		if s.MinItems == nil || *s.MinItems < n {
			s.MinItems = &n
		}
	}
}

// base64Pattern is what encoding/json decodes into a []byte: standard
// base64 with padding, where the decoder skips '\r' and '\n'. OpenAPI's
// format: byte is looser (kin-openapi lets "eHg" and "-_" through); the API
// server's own byte format is checked in CRDs.
const base64Pattern = `^[\r\n]*(?:(?:[A-Za-z0-9+/][\r\n]*){4})*(?:(?:[A-Za-z0-9+/][\r\n]*){2}=[\r\n]*=|(?:[A-Za-z0-9+/][\r\n]*){3}=)?[\r\n]*$`

// float32Range refuses numbers beyond float32's range, which encoding/json
// refuses. In CRDs it is a CEL rule: the API server compares an integral
// value with int64(maximum), and int64(3.4e38) overflows.
func float32Range(s *apiext.JSONSchemaProps, t *model.TypeRef, target model.Target) {
	t = t.Deref()
	if t == nil || t.Kind != model.KindFloat || t.Bits != 32 || s.Type != "number" {
		return
	}
	if target == model.TargetCRD {
		s.XValidations = append(s.XValidations, apiext.ValidationRule{
			Rule: "self >= -3.4028234663852886e+38 && self <= 3.4028234663852886e+38", Message: "must fit in a float32"})
		return
	}
	lo, hi := -math.MaxFloat32, math.MaxFloat32
	if s.Minimum == nil || *s.Minimum < lo {
		s.Minimum, s.ExclusiveMinimum = &lo, false
	}
	if s.Maximum == nil || *s.Maximum > hi {
		s.Maximum, s.ExclusiveMaximum = &hi, false
	}
}

// typeRange bounds an integer to its Go type's range where no format
// does (format int32 and int64 do): encoding/json refuses -1 for a uint8
// and 128 for an int8, which the API server would store. A uint32 gets
// format int64, since int32 would refuse its upper half.
func typeRange(s *apiext.JSONSchemaProps, t *model.TypeRef) {
	t = t.Deref()
	if t == nil || t.Kind != model.KindInt || s.Type != "integer" {
		return
	}
	bits := t.Bits
	if bits == 0 {
		bits = 64
	}
	lo, hi := -math.Ldexp(1, bits-1), math.Ldexp(1, bits-1)-1
	switch {
	case t.Unsigned:
		lo, hi = 0, math.Ldexp(1, bits)-1
		if bits == 32 {
			s.Format = "int64"
		}
	case bits >= 32:
		return
	}
	if s.Minimum == nil || *s.Minimum < lo {
		s.Minimum, s.ExclusiveMinimum = &lo, false
	}
	if bits < 64 && (s.Maximum == nil || *s.Maximum > hi) {
		s.Maximum, s.ExclusiveMaximum = &hi, false
	}
}

// markNullable sets nullable on the properties whose Go type decodes JSON
// null (pointers, slices, maps), in the OpenAPI document only: the API
// server drops such nulls before validating (it prunes nulls of
// non-nullable fields), which a CRD says by leaving nullable unset.
func markNullable(t *model.Type, sc *apiext.JSONSchemaProps) {
	markNullableIf(t, sc, func(f *model.Field) bool {
		// validator rejects nil: so does the contract
		return f.Validate == nil || f.Validate.Skip || !model.ZeroFails(f)
	})
}

// markNullableIf marks the nillable properties for which nilPasses holds.
func markNullableIf(t *model.Type, sc *apiext.JSONSchemaProps, nilPasses func(*model.Field) bool) {
	for _, f := range t.Fields {
		if f.JSONName == "" || f.Skip || f.Type.Kind == model.KindBytes || !f.Type.Nillable() || !nilPasses(f) {
			continue
		}
		if prop, ok := sc.Properties[f.JSONName]; ok {
			prop.Nullable = true
			sc.Properties[f.JSONName] = prop
		}
	}
}

// explicitPresence reports kubebuilder markers that already decide whether
// the field must be present.
func explicitPresence(f *model.Field) bool {
	for _, m := range []string{"kubebuilder:validation:Required", "kubebuilder:validation:Optional", "optional", "required"} {
		if f.Markers.Get(m) != nil {
			return true
		}
	}
	return false
}

// applyLevel lays the checks of one level over the value's schema. Checks
// written before omitempty apply to every value; the ones after it are
// wrapped so that the zero value passes, as validator skips them.
func (s *Set) applyLevel(owner *model.Type, f *model.Field, parent, self *apiext.JSONSchemaProps, lv *model.Level) {
	guarded := lv.Guarded
	if lv.Omit == model.OmitNever {
		guarded = len(lv.Checks)
	}
	s.applyChecks(owner, f, parent, self, lv, lv.Checks[:guarded], "", false)
	s.applyChecks(owner, f, parent, self, lv, lv.Checks[guarded:], zeroGuard(lv), lv.Omit != model.OmitNil || lv.Type.Nillable())
	s.applyChildren(owner, f, self, lv)
}

// applyChecks lays checks over a value's schema; omitted says the omit
// keyword may skip them, so they never make the field required.
func (s *Set) applyChecks(owner *model.Type, f *model.Field, parent, self *apiext.JSONSchemaProps, lv *model.Level, checks []*model.Check, guard string, omitted bool) {
	if len(checks) == 0 {
		return
	}
	inner := apiext.JSONSchemaProps{}
	scratchParent := &apiext.JSONSchemaProps{}
	for _, c := range checks {
		ctx := &applyContext{Target: s.Target, Self: &inner, Parent: scratchParent, Owner: owner, Field: f, Diags: &s.Diags}
		if len(c.Or) == 1 {
			s.apply(ctx, c.Or[0])
			continue
		}
		s.applyAlternatives(ctx, c)
	}
	if parent != nil {
		for _, r := range scratchParent.XValidations {
			if guard != "" {
				ref := celSelf(f)
				r.Rule = "!has(" + ref + ") || " + ref + " == " + guard + " || (" + r.Rule + ")"
			} else if omitted && lv.Type.Nillable() {
				// omitempty skips a nil pointer, slice or map: a missing field
				r.Rule = "!has(" + celSelf(f) + ") || (" + r.Rule + ")"
			} else if nz, ok := CELNonZero(celSelf(f), lv.Type); omitted && ok && lv.Type.Kind == model.KindStruct {
				// omitempty skips a struct whose fields are all zero
				r.Rule = "!has(" + celSelf(f) + ") || !" + nz + " || (" + r.Rule + ")"
			}
			parent.XValidations = append(parent.XValidations, r)
		}
		for _, n := range scratchParent.Required {
			if !omitted && !slices.Contains(parent.Required, n) {
				parent.Required = append(parent.Required, n)
			}
		}
	}
	merge(self, &inner, lv, checks, guard)
}

func (s *Set) applyChildren(owner *model.Type, f *model.Field, self *apiext.JSONSchemaProps, lv *model.Level) {
	if lv.Dive != nil {
		switch {
		case self.Items != nil && self.Items.Schema != nil:
			s.applyLevel(owner, f, nil, self.Items.Schema, lv.Dive)
		case self.AdditionalProperties != nil && self.AdditionalProperties.Schema != nil:
			s.applyLevel(owner, f, nil, self.AdditionalProperties.Schema, lv.Dive)
		}
	}
	if lv.Keys != nil {
		s.applyKeys(self, lv.Keys)
	}
}

func (s *Set) apply(ctx *applyContext, u *model.Use) {
	ctx.Use = u
	lower(ctx)
}

// applyAlternatives turns `a|b` into anyOf; alternatives that need CEL or
// run time only make the whole check run time only.
func (s *Set) applyAlternatives(ctx *applyContext, c *model.Check) {
	var subs []apiext.JSONSchemaProps
	for _, u := range c.Or {
		sub := apiext.JSONSchemaProps{}
		sctx := *ctx
		sctx.Self, sctx.Parent = &sub, &apiext.JSONSchemaProps{}
		s.apply(&sctx, u)
		if u.Keyword.Class() != model.Schema || len(sub.XValidations) > 0 || len(sctx.Parent.XValidations) > 0 {
			return // runtime only: the model says so (model.RuntimeOnly)
		}
		subs = append(subs, sub)
	}
	if len(ctx.Self.AnyOf) == 0 {
		ctx.Self.AnyOf = subs
		return
	}
	ctx.Self.AllOf = append(ctx.Self.AllOf, apiext.JSONSchemaProps{AnyOf: subs})
}

// zeroGuard is the CEL literal of the value guardType lets through.
func zeroGuard(lv *model.Level) string {
	t := model.GuardType(lv)
	if t == nil {
		return ""
	}
	return zeroLiteral(t)
}

// zeroLiteral is the CEL literal of a kind's zero value as the schemas see
// it ("" when the kind has none): the one table the guards and the
// cross-field rules share.
func zeroLiteral(t *model.TypeRef) string {
	switch t.Kind {
	case model.KindString:
		return "''"
	case model.KindInt, model.KindDuration:
		return "0"
	case model.KindFloat:
		return "0.0"
	case model.KindBool:
		return "false"
	case model.KindSlice:
		if t.Len < 0 {
			return "[]"
		}
	case model.KindMap:
		return "{}"
	case model.KindTime:
		// a date-time string is a CEL timestamp; validator reads a
		// missing time.Time as the zero time
		return "timestamp('0001-01-01T00:00:00Z')"
	}
	return ""
}

// celSelf reads the field on the parent (see CELField).
func celSelf(f *model.Field) string {
	return selfProp(f.JSONName)
}

// merge copies the validations in inner onto self. When omitempty lets the
// zero value of a scalar through, and inner rejects it, inner is wrapped:
// anyOf [zero, inner].
func merge(self, inner *apiext.JSONSchemaProps, lv *model.Level, checks []*model.Check, guard string) {
	for i := range inner.XValidations {
		if guard != "" {
			inner.XValidations[i].Rule = "self == " + guard + " || (" + inner.XValidations[i].Rule + ")"
		}
	}
	self.XValidations = append(self.XValidations, inner.XValidations...)
	inner.XValidations = nil
	if inner.XListType != nil {
		self.XListType = inner.XListType
		inner.XListType = nil
	}
	if guard != "" && model.RejectsZero(lv, checks) {
		zero := zeroSchema(model.GuardType(lv))
		self.AnyOf = append(self.AnyOf, zero, *inner)
		return
	}
	copyValidations(self, inner)
}

func zeroSchema(t *model.TypeRef) apiext.JSONSchemaProps {
	zero := int64(0)
	switch t.Kind {
	case model.KindString:
		return apiext.JSONSchemaProps{MaxLength: &zero}
	case model.KindBool:
		return apiext.JSONSchemaProps{Enum: []apiext.JSON{{Raw: []byte("false")}}}
	case model.KindSlice:
		return apiext.JSONSchemaProps{MaxItems: &zero}
	case model.KindMap:
		return apiext.JSONSchemaProps{MaxProperties: &zero}
	case model.KindFloat:
		// not enum [0]: the API server converts a number to the enum's
		// type before comparing, and 0.5 becomes int64 0
		z := 0.0
		return apiext.JSONSchemaProps{Minimum: &z, Maximum: &z}
	}
	return apiext.JSONSchemaProps{Enum: []apiext.JSON{{Raw: []byte("0")}}}
}

func copyValidations(dst, src *apiext.JSONSchemaProps) {
	if src.Minimum != nil {
		dst.Minimum, dst.ExclusiveMinimum = src.Minimum, src.ExclusiveMinimum
	}
	if src.Maximum != nil {
		dst.Maximum, dst.ExclusiveMaximum = src.Maximum, src.ExclusiveMaximum
	}
	for _, p := range []struct{ d, s **int64 }{
		{&dst.MinLength, &src.MinLength}, {&dst.MaxLength, &src.MaxLength},
		{&dst.MinItems, &src.MinItems}, {&dst.MaxItems, &src.MaxItems},
		{&dst.MinProperties, &src.MinProperties}, {&dst.MaxProperties, &src.MaxProperties},
	} {
		if *p.s != nil {
			*p.d = *p.s
		}
	}
	if src.Pattern != "" {
		if dst.Pattern == "" {
			dst.Pattern = src.Pattern
		} else {
			dst.AllOf = append(dst.AllOf, apiext.JSONSchemaProps{Pattern: src.Pattern})
		}
	}
	if len(src.Enum) > 0 {
		if len(dst.Enum) == 0 {
			dst.Enum = src.Enum
		} else {
			dst.AllOf = append(dst.AllOf, apiext.JSONSchemaProps{Enum: src.Enum})
		}
	}
	if src.Not != nil {
		if dst.Not == nil {
			dst.Not = src.Not
		} else {
			dst.AllOf = append(dst.AllOf, apiext.JSONSchemaProps{Not: src.Not})
		}
	}
	if src.UniqueItems {
		dst.UniqueItems = true
	}
	dst.AnyOf = append(dst.AnyOf, src.AnyOf...)
	dst.AllOf = append(dst.AllOf, src.AllOf...)
}
