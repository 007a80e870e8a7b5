// Package schema turns the model into JSON schemas, once, for every output:
// controller-tools' CRD parser gives the structure of each type (ObjectMeta,
// Quantity, embedded structs, kubebuilder markers), and the validate
// constraints of the model are laid over it by the keyword registry, and
// the state machines the model resolved become enums and CEL transition
// rules. The CRD backend and the OpenAPI document both read the result, so
// they cannot drift apart.
package schema

import (
	"math"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/go-playground/validator/v10"
	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/modelgen/modelgen/model"
	"github.com/modelgen/modelgen/model/vtag"
)

// Set holds the schemas of every type of a model for one target.
type Set struct {
	Model  *model.Model
	Target model.Target
	Parser *crd.Parser
	Diags  model.Diagnostics
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
		p.NeedSchemaFor(Ident(t))
	}
	for _, pk := range m.Packages {
		s.Diags.Add(pk.LoadErrors())
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
	for _, t := range types {
		s.pointerEmbeds(t)
	}
	return s
}

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
		if f.Validate == nil || f.JSONName == "" || f.Skip || f.Validate.Syn.Skip {
			continue
		}
		prop, ok := sc.Properties[f.JSONName]
		if !ok {
			continue
		}
		if !explicitPresence(f) {
			sc.Required = slices.DeleteFunc(sc.Required, func(n string) bool { return n == f.JSONName })
			if zeroFails(f) {
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
			arrayLength(&prop, f.Type)
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

// arrayLength bounds a Go array [N]T to N items. encoding/json decodes a
// shorter JSON array into it with zero values after it and drops the items
// past N; the schema says what the array holds (a documented difference in
// the agreement tests).
func arrayLength(s *apiext.JSONSchemaProps, t *model.TypeRef) {
	t = t.Deref()
	if t == nil || t.Kind != model.KindSlice || t.Len < 0 || s.Type != "array" {
		return
	}
	n := int64(t.Len)
	if s.MinItems == nil || *s.MinItems < n {
		s.MinItems = &n
	}
	if s.MaxItems == nil || *s.MaxItems > n {
		s.MaxItems = &n
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
	for _, f := range t.Fields {
		if f.JSONName == "" || f.Skip || f.Type.Kind == model.KindBytes || !f.Type.Nillable() {
			continue
		}
		if f.Validate != nil && !f.Validate.Syn.Skip && zeroFails(f) {
			continue // validator rejects nil: so does the contract
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
	if lv.Omit == vtag.OmitNever {
		guarded = len(lv.Checks)
	}
	s.applyChecks(owner, f, parent, self, lv, lv.Checks[:guarded], "", false)
	s.applyChecks(owner, f, parent, self, lv, lv.Checks[guarded:], zeroGuard(lv), lv.Omit != vtag.OmitNil || lv.Type.Nillable())
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
		ctx := &model.ApplyContext{Target: s.Target, Self: &inner, Parent: scratchParent, Owner: owner, Field: f, Diags: &s.Diags}
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
			} else if nz, ok := model.CELNonZero(celSelf(f), lv.Type); omitted && ok && lv.Type.Kind == model.KindStruct {
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

func (s *Set) apply(ctx *model.ApplyContext, u *model.Use) {
	ctx.Use = u
	if a, ok := u.Keyword.(model.Applier); ok {
		a.Apply(ctx)
	}
}

// applyAlternatives turns `a|b` into anyOf; alternatives that need CEL or
// run time only make the whole check run time only.
func (s *Set) applyAlternatives(ctx *model.ApplyContext, c *model.Check) {
	var subs []apiext.JSONSchemaProps
	for _, u := range c.Or {
		sub := apiext.JSONSchemaProps{}
		sctx := *ctx
		sctx.Self, sctx.Parent = &sub, &apiext.JSONSchemaProps{}
		s.apply(&sctx, u)
		if u.Keyword.Class() != model.Schema || len(sub.XValidations) > 0 || len(sctx.Parent.XValidations) > 0 {
			s.Diags.Warnf(c.Pos, "validate: alternatives with %q are enforced by the validator at run time only", u.Name)
			return
		}
		subs = append(subs, sub)
	}
	if len(ctx.Self.AnyOf) == 0 {
		ctx.Self.AnyOf = subs
		return
	}
	ctx.Self.AllOf = append(ctx.Self.AllOf, apiext.JSONSchemaProps{AnyOf: subs})
}

// guardType is the type of the JSON value the level's omit keyword lets
// past the checks written after it, or nil when that is only an absent
// field: omitempty skips nil and the zero value of a non-nillable value;
// omitzero also skips a pointer to the zero value and an empty slice or map;
// omitnil skips nil only, so it changes nothing on a string or a number.
func guardType(lv *model.Level) *model.TypeRef {
	switch lv.Omit {
	case vtag.OmitEmpty:
		if lv.Type.Nillable() {
			return nil
		}
		return lv.Type
	case vtag.OmitZero:
		return lv.Type.Deref()
	}
	return nil
}

// zeroGuard is the CEL literal of the value guardType lets through.
func zeroGuard(lv *model.Level) string {
	t := guardType(lv)
	if t == nil {
		return ""
	}
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
		// a date-time string is a timestamp in CEL
		return "timestamp('0001-01-01T00:00:00Z')"
	}
	return ""
}

// celSelf reads the field on the parent (see model.CELField).
func celSelf(f *model.Field) string {
	sel, _ := model.CELField("self", f.JSONName)
	return sel
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
	if guard != "" && rejectsZero(lv, checks) {
		zero := zeroSchema(guardType(lv))
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

var validate = validator.New()

// rejectsZero asks validator itself whether the level's own checks (without
// omitempty and cross-field rules) reject the zero value.
func rejectsZero(lv *model.Level, checks []*model.Check) bool {
	tag := localTag(checks)
	t := guardType(lv)
	if tag == "" || t == nil {
		return false
	}
	return !passes(zeroOf(t), tag)
}

// zeroFails reports whether a missing field (the zero value after
// json.Unmarshal) fails the field's checks: then the schema must require it.
func zeroFails(f *model.Field) bool {
	lv := f.Validate.Root
	checks := lv.Checks
	// omitnil on a value that cannot be nil skips nothing
	if lv.Omit != vtag.OmitNever && (lv.Omit != vtag.OmitNil || lv.Type.Nillable()) {
		checks = checks[:lv.Guarded]
	}
	// `required` after omitempty never sees a missing field
	if (&model.Level{Checks: checks}).Has("required") != nil && !model.SkipsRequired(lv.Type) {
		return true
	}
	if lv.Type.Kind == model.KindStruct && lv.Type.Named != nil && structZeroFails(lv.Type.Named, 0) {
		// validator walks into a missing struct: its fields' checks decide
		return true
	}
	if lv.Type.Kind == model.KindPointer {
		// validator fails a nil pointer on its first check, unless that
		// check runs on nil (required_if, excluded_with and the like)
		return len(checks) > 0 && !runsOnNil(checks[0])
	}
	if arrayZeroFails(lv) {
		return true
	}
	tag := localTag(checks)
	if tag == "" {
		return false
	}
	z := zeroOf(lv.Type)
	if !z.IsValid() {
		return false
	}
	return !passes(z, tag)
}

// arrayZeroFails reports a Go array whose zero elements fail the checks
// after dive: a missing field decodes to N zero elements, which validator
// then checks.
func arrayZeroFails(lv *model.Level) bool {
	t := lv.Type
	if t.Kind != model.KindSlice || t.Len <= 0 || lv.Dive == nil || lv.Omit != vtag.OmitNever {
		return false
	}
	tag := localTag(lv.Dive.Checks)
	z := zeroOf(t.Elem)
	return tag != "" && z.IsValid() && !passes(z, tag)
}

// structZeroFails reports whether validator rejects the zero value of a
// struct of the model: some field of it rejects its own zero value.
func structZeroFails(t *model.Type, depth int) bool {
	if depth > 8 {
		return false
	}
	for _, f := range t.Fields {
		switch {
		case f.Skip:
		case f.Validate != nil && !f.Validate.Syn.Skip:
			if zeroFails(f) {
				return true
			}
		case f.Type.Kind == model.KindStruct && f.Type.Named != nil:
			if structZeroFails(f.Type.Named, depth+1) {
				return true
			}
		}
	}
	return false
}

// runsOnNil reports the conditional keywords validator calls on a nil
// pointer (registered with callValidationEvenIfNull).
func runsOnNil(c *model.Check) bool {
	n := c.Or[0].Keyword.Name()
	return strings.HasPrefix(n, "required_") || strings.HasPrefix(n, "excluded_")
}

func passes(v reflect.Value, tag string) (ok bool) {
	if !v.IsValid() {
		return true
	}
	defer func() {
		if recover() != nil {
			ok = true
		}
	}()
	return validate.Var(v.Interface(), tag) == nil
}

// localTag renders the level's own checks (no cross-field keywords) in
// validator's grammar.
func localTag(checks []*model.Check) string {
	var parts []string
	for _, c := range checks {
		var alts []string
		for _, u := range c.Or {
			if u.Keyword.Class() == model.CEL && isCross(u) {
				alts = nil
				break
			}
			a := u.Keyword.Name()
			if u.Param != "" {
				a += "=" + strings.NewReplacer(",", "0x2C", "|", "0x7C").Replace(u.Param)
			}
			alts = append(alts, a)
		}
		if len(alts) > 0 {
			parts = append(parts, strings.Join(alts, "|"))
		}
	}
	return strings.Join(parts, ",")
}

func isCross(u *model.Use) bool {
	_, ok := u.Value.(*model.Field)
	n := u.Keyword.Name()
	return ok || strings.HasPrefix(n, "required_") || strings.HasPrefix(n, "excluded_")
}

func zeroOf(t *model.TypeRef) reflect.Value {
	switch t.Kind {
	case model.KindString:
		return reflect.ValueOf("")
	case model.KindInt:
		if t.Unsigned {
			return reflect.ValueOf(uint64(0))
		}
		return reflect.ValueOf(int64(0))
	case model.KindDuration:
		return reflect.ValueOf(int64(0))
	case model.KindFloat:
		return reflect.ValueOf(float64(0))
	case model.KindBool:
		return reflect.ValueOf(false)
	case model.KindSlice:
		if t.Len >= 0 && t.Elem != nil {
			// a Go array is never empty: N zero elements
			if z := zeroOf(t.Elem); z.IsValid() {
				return reflect.New(reflect.ArrayOf(t.Len, z.Type())).Elem()
			}
			return reflect.Value{}
		}
		return reflect.ValueOf([]string(nil))
	case model.KindMap:
		return reflect.ValueOf(map[string]string(nil))
	case model.KindBytes:
		return reflect.ValueOf([]byte(nil))
	}
	return reflect.Value{}
}
