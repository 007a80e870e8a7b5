// Package crdjudge judges custom resources the way a kube-apiserver does,
// in process, with the API server's own code
// (k8s.io/apiextensions-apiserver): it is the one judge the module's tests
// and the agreement suite (agree) share.
//
// # What a Server checks
//
// New refuses a CRD the API server would refuse
// (ValidateCustomResourceDefinition: structural schema, CEL compilation,
// the static cost budget). A Server is then one served version of the CRD,
// and judges a create (Create) or an update (Update) as the server's
// handler and strategy do (customresource_handler.go, strategy.go,
// validator.go in k8s.io/apiextensions-apiserver/pkg/...):
//
//  1. pruning of unknown fields, dropping of nulls of non-nullable fields,
//     coercion of metadata, defaulting (the object is changed in place, to
//     what the server would store);
//  2. apiVersion and kind against the CRD, metadata (name, namespace of a
//     namespaced kind, labels...);
//  3. the OpenAPI schema validator; embedded objects; list-type invariants;
//  4. unless a blocking error came first, the CEL rules with the server's
//     per-call limit and per-request budget, on update with oldSelf and,
//     as a server of 1.33 or later always does, validation ratcheting.
//
// What it does not do: admission (webhooks, policies), the status reset of
// an update through the main resource (PrepareForUpdate), scale
// subresource checks, field selectors. A real kube-apiserver (envtest, in
// the examples module) covers those.
//
// Rules compiles every CEL rule of a CRD with the environment of a given
// Kubernetes version, for the minimum-version and cost tests.
package crdjudge

import (
	"context"
	"errors"
	"fmt"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	crdvalidation "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	celmodel "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	structurallisttype "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	schemavalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apimachinery/pkg/api/operation"
	metavalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/common"
)

// Server is the API server's validation of one served version of a CRD.
type Server struct {
	crd        *apiext.CustomResourceDefinition
	version    string
	namespaced bool
	structural *structuralschema.Structural
	validator  schemavalidation.SchemaValidator
	cel        *cel.Validator
	noRatchet  bool
}

// WithoutRatcheting is the judge of a server that does not ratchet
// validation (Kubernetes before 1.30, or the feature gate off): an update
// is validated whole, as a create is, with oldSelf in the CEL rules.
func (s *Server) WithoutRatcheting() *Server {
	c := *s
	c.noRatchet = true
	return &c
}

// Read is what a read of obj, stored in this version, returns from the
// store's decoder: unknown fields pruned, nulls of non-nullable fields
// dropped, defaults applied. obj is changed in place; pruned are the paths
// of the fields pruned (spec.a.b, spec.list[0].c).
func (s *Server) Read(obj map[string]any) (pruned []string) {
	pruned = s.Coerce(obj)
	structuraldefaulting.Default(obj, s.structural)
	return pruned
}

// Coerce is what the server does to an object converted to this version
// for a response (schemaCoercingConverter): unknown fields pruned and nulls
// of non-nullable fields dropped, no defaults (those of the storage
// version were applied when it was read from the store).
func (s *Server) Coerce(obj map[string]any) (pruned []string) {
	pruned = structuralpruning.PruneWithOptions(obj, s.structural, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true})
	structuraldefaulting.PruneNonNullableNullsWithoutDefaults(obj, s.structural)
	return pruned
}

// New is the judge of version of crd. It fails when the API server would
// refuse the CRD, or when the version has no schema.
func New(crd *apiext.CustomResourceDefinition, version string) (*Server, error) {
	if errs := CheckDefinition(crd); len(errs) > 0 {
		return nil, fmt.Errorf("the API server refuses the CRD %s: %w", crd.Name, errs.ToAggregate())
	}
	var ver *apiext.CustomResourceDefinitionVersion
	for i := range crd.Spec.Versions {
		if crd.Spec.Versions[i].Name == version {
			ver = &crd.Spec.Versions[i]
		}
	}
	if ver == nil || ver.Schema == nil || ver.Schema.OpenAPIV3Schema == nil {
		return nil, fmt.Errorf("CRD %s has no schema for version %q", crd.Name, version)
	}
	internal := &apiextensions.CustomResourceValidation{}
	if err := apiext.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(ver.Schema, internal, nil); err != nil {
		return nil, fmt.Errorf("CRD %s: converting the schema: %w", crd.Name, err)
	}
	s, err := structuralschema.NewStructural(internal.OpenAPIV3Schema)
	if err != nil {
		return nil, fmt.Errorf("CRD %s: the schema is not structural: %w", crd.Name, err)
	}
	s = s.DeepCopy()
	if err := structuraldefaulting.PruneDefaults(s); err != nil {
		return nil, fmt.Errorf("CRD %s: pruning defaults: %w", crd.Name, err)
	}
	sv, _, err := schemavalidation.NewSchemaValidator(internal.OpenAPIV3Schema)
	if err != nil {
		return nil, fmt.Errorf("CRD %s: %w", crd.Name, err)
	}
	return &Server{
		crd: crd, version: version, namespaced: crd.Spec.Scope == apiext.NamespaceScoped,
		structural: s, validator: sv, cel: cel.NewValidator(s, true, celconfig.PerCallLimit),
	}, nil
}

// CheckDefinition is the API server's validation of a CRD on create, with
// the storage version recorded as the server's create strategy does.
func CheckDefinition(crd *apiext.CustomResourceDefinition) field.ErrorList {
	internal := &apiextensions.CustomResourceDefinition{}
	if err := apiext.Convert_v1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition(crd, internal, nil); err != nil {
		return field.ErrorList{field.InternalError(nil, fmt.Errorf("converting the CRD: %w", err))}
	}
	internal.Status.StoredVersions = nil
	for _, v := range internal.Spec.Versions {
		if v.Storage {
			internal.Status.StoredVersions = append(internal.Status.StoredVersions, v.Name)
		}
	}
	return crdvalidation.ValidateCustomResourceDefinition(context.Background(), internal)
}

// CRD is the definition the server judges by.
func (s *Server) CRD() *apiext.CustomResourceDefinition { return s.crd }

// Structural is the version's structural schema, defaults pruned as the
// server prunes them.
func (s *Server) Structural() *structuralschema.Structural { return s.structural }

// Object is an object of the CRD's kind with the given top-level fields
// (spec, status...): apiVersion, kind and metadata (name "x", and
// namespace "default" for a namespaced kind) filled in. The fields are
// copied shallowly.
func (s *Server) Object(fields map[string]any) map[string]any {
	meta := map[string]any{"name": "x"}
	if s.namespaced {
		meta["namespace"] = "default"
	}
	obj := map[string]any{"apiVersion": s.crd.Spec.Group + "/" + s.version, "kind": s.crd.Spec.Names.Kind, "metadata": meta}
	for k, v := range fields {
		obj[k] = v
	}
	return obj
}

// Decode reads a request body as the server does: its JSON library keeps
// integral numbers as int64.
func Decode(doc []byte) (map[string]any, error) {
	var obj map[string]any
	if err := utiljson.Unmarshal(doc, &obj); err != nil {
		return nil, fmt.Errorf("decode: %w", err)
	}
	if obj == nil {
		return nil, errors.New("decode: the document is not an object")
	}
	return obj, nil
}

// Create judges a create request of obj; obj becomes what the server would
// store (pruned, defaulted). No errors means the server admits it.
func (s *Server) Create(obj map[string]any) field.ErrorList {
	if errs := s.decodeSteps(obj); len(errs) > 0 {
		return errs
	}
	ctx := context.Background()
	errs := s.typeMeta(obj)
	if len(errs) > 0 {
		return errs
	}
	errs = append(errs, s.objectMeta(ctx, operation.Create, obj, nil)...)
	errs = append(errs, schemavalidation.ValidateCustomResource(nil, obj, s.validator)...)
	errs = append(errs, schemaobjectmeta.Validate(ctx, nil, obj, s.structural, false)...)
	errs = append(errs, structurallisttype.ValidateListSetsAndMaps(nil, s.structural, obj)...)
	return s.withCEL(ctx, errs, obj, nil)
}

// Update judges an update of old (as stored) to obj, as the strategy's
// ValidateUpdate does: with validation ratcheting (errors of values the
// update leaves unchanged do not count) and oldSelf in the CEL rules. obj
// is pruned and defaulted in place; old is taken as stored. A stored
// object has a resourceVersion, and an update carries the one it read:
// when obj's or old's metadata lack one, Update sets "1" there (as the
// store and a client's read-modify-write would), so that the judged
// update is one the server would get.
func (s *Server) Update(obj, old map[string]any) field.ErrorList {
	if errs := s.decodeSteps(obj); len(errs) > 0 {
		return errs
	}
	setResourceVersion(old, "1")
	if meta, ok := old["metadata"].(map[string]any); ok {
		setResourceVersion(obj, meta["resourceVersion"])
	}
	ctx := context.Background()
	errs := s.typeMeta(obj)
	if len(errs) > 0 {
		return errs
	}
	errs = append(errs, s.objectMeta(ctx, operation.Update, obj, old)...)
	if s.noRatchet {
		errs = append(errs, schemavalidation.ValidateCustomResourceUpdate(nil, obj, old, s.validator)...)
		errs = append(errs, schemaobjectmeta.Validate(ctx, nil, obj, s.structural, false)...)
		// list invariants are checked on update only where the stored
		// object met them, ratcheting or not (strategy.go)
		if oldErrs := structurallisttype.ValidateListSetsAndMaps(nil, s.structural, old); len(oldErrs) == 0 {
			errs = append(errs, structurallisttype.ValidateListSetsAndMaps(nil, s.structural, obj)...)
		}
		return s.withCEL(ctx, errs, obj, old)
	}
	correlated := common.NewCorrelatedObject(obj, old, &celmodel.Structural{Structural: s.structural})
	errs = append(errs, schemavalidation.ValidateCustomResourceUpdate(nil, obj, old, s.validator, schemavalidation.WithRatcheting(correlated))...)
	errs = append(errs, schemaobjectmeta.Validate(ctx, nil, obj, s.structural, false)...)
	if oldErrs := structurallisttype.ValidateListSetsAndMaps(nil, s.structural, old); len(oldErrs) == 0 {
		errs = append(errs, structurallisttype.ValidateListSetsAndMaps(nil, s.structural, obj)...)
	}
	return s.withCEL(ctx, errs, obj, old, cel.WithRatcheting(correlated))
}

// decodeSteps is what the server's decoder does to a request body before
// validation: pruning, nulls, metadata coercion, defaulting.
func (s *Server) decodeSteps(obj map[string]any) field.ErrorList {
	structuralpruning.PruneWithOptions(obj, s.structural, true, structuralschema.UnknownFieldPathOptions{})
	structuraldefaulting.PruneNonNullableNullsWithoutDefaults(obj, s.structural)
	if err, _ := schemaobjectmeta.CoerceWithOptions(nil, obj, s.structural, false, schemaobjectmeta.CoerceOptions{}); err != nil {
		return field.ErrorList{err}
	}
	structuraldefaulting.Default(obj, s.structural)
	return nil
}

func (s *Server) withCEL(ctx context.Context, errs field.ErrorList, obj, old map[string]any, opts ...cel.Option) field.ErrorList {
	if blocking(errs) {
		return append(errs, field.Invalid(nil, nil, "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation"))
	}
	var oldObj any
	if old != nil {
		oldObj = old
	}
	celErrs, _ := s.cel.Validate(ctx, nil, s.structural, obj, oldObj, celconfig.RuntimeCELCostBudget, opts...)
	return append(errs, celErrs...)
}

// blocking is the strategy's hasBlockingErr: after these errors the server
// does not run the CEL rules.
func blocking(errs field.ErrorList) bool {
	for _, e := range errs {
		switch e.Type {
		case field.ErrorTypeNotSupported, field.ErrorTypeRequired, field.ErrorTypeTooLong, field.ErrorTypeTooMany, field.ErrorTypeTypeInvalid:
			return true
		}
	}
	return false
}

// typeMeta is the validator's ValidateTypeMeta.
func (s *Server) typeMeta(obj map[string]any) field.ErrorList {
	var errs field.ErrorList
	if kind, _ := obj["kind"].(string); kind != s.crd.Spec.Names.Kind {
		errs = append(errs, field.Invalid(field.NewPath("kind"), obj["kind"], "must be "+s.crd.Spec.Names.Kind))
	}
	want := s.crd.Spec.Group + "/" + s.version
	if v, _ := obj["apiVersion"].(string); v != want {
		errs = append(errs, field.Invalid(field.NewPath("apiVersion"), obj["apiVersion"], "must be "+want))
	}
	return errs
}

// objectMeta is the validator's declarative ObjectMeta validation.
func (s *Server) objectMeta(ctx context.Context, op operation.Type, obj, old map[string]any) field.ErrorList {
	meta, errs := objectMetaOf(obj)
	if len(errs) > 0 {
		return errs
	}
	var oldMeta *metav1.ObjectMeta
	var nameFn metavalidation.ValidateNameFunc = metavalidation.NameIsDNSSubdomain
	if op == operation.Update {
		if oldMeta, errs = objectMetaOf(old); len(errs) > 0 {
			return errs
		}
		nameFn = nil
	}
	return metavalidation.ValidateObjectMetaDeclaratively(ctx, op, meta, oldMeta, s.namespaced, nameFn, field.NewPath("metadata"), false)
}

// setResourceVersion gives obj's metadata the resourceVersion rv when it
// has none.
func setResourceVersion(obj map[string]any, rv any) {
	meta, ok := obj["metadata"].(map[string]any)
	if !ok {
		return
	}
	if _, has := meta["resourceVersion"]; !has {
		meta["resourceVersion"] = rv
	}
}

func objectMetaOf(obj map[string]any) (*metav1.ObjectMeta, field.ErrorList) {
	meta := &metav1.ObjectMeta{}
	raw := obj["metadata"]
	if raw == nil {
		return meta, nil
	}
	m, ok := raw.(map[string]any)
	if !ok {
		return nil, field.ErrorList{field.Invalid(field.NewPath("metadata"), raw, fmt.Sprintf("expected map[string]interface{}, got %T", raw))}
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(m, meta); err != nil {
		return nil, field.ErrorList{field.Invalid(field.NewPath("metadata"), raw, err.Error())}
	}
	return meta, nil
}
