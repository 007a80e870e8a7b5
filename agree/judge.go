package agree

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/go-playground/validator/v10"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	structurallisttype "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/modelgen/modelgen/openapi"
)

// The API server's CEL limits, as k8s.io/apiserver/pkg/apis/cel declares
// them (PerCallLimit, RuntimeCELCostBudget); copied, because this module
// does not require k8s.io/apiserver directly.
const (
	celPerCallLimit         = 1000000
	celRuntimeCostBudget    = 10000000
	maxReasonLength         = 400
	validatorPanicReasonTag = "validator panicked"
)

// Verdict is one judge's answer for one document.
type Verdict struct {
	// Judged is false when the judge does not apply (no CRD for a plain
	// model type).
	Judged bool
	Accept bool
	// Reason is the judge's error text when it rejects.
	Reason string
}

func (v Verdict) String() string {
	switch {
	case !v.Judged:
		return "n/a"
	case v.Accept:
		return "accept"
	}
	return "reject: " + v.Reason
}

func accept() Verdict              { return Verdict{Judged: true, Accept: true} }
func reject(reason string) Verdict { return Verdict{Judged: true, Reason: clip(reason)} }

func clip(s string) string {
	if len(s) > maxReasonLength {
		return s[:maxReasonLength] + "..."
	}
	return s
}

// fieldError is one failed validator check: where (JSON path of Go
// names, as validator's StructNamespace) and which keyword.
type fieldError struct {
	Namespace string // "Sample.Spec.Tags[0]"
	Tag       string // the keyword (alternatives joined by '|', aliases expanded)
}

// validatorJudge decodes a document into the Go type with encoding/json,
// as an application's HTTP handler does, and runs validator on it.
type validatorJudge struct {
	typ reflect.Type
	v   *validator.Validate
}

func (j validatorJudge) judge(doc []byte) (verdict Verdict, errs []fieldError) {
	ptr := reflect.New(j.typ)
	if err := json.Unmarshal(doc, ptr.Interface()); err != nil {
		return reject("json.Unmarshal: " + err.Error()), nil
	}
	return j.validate(ptr)
}

// validate runs validator on a decoded value (a pointer to the type).
func (j validatorJudge) validate(ptr reflect.Value) (verdict Verdict, errs []fieldError) {
	defer func() {
		if r := recover(); r != nil {
			verdict, errs = reject(fmt.Sprintf("%s: %v", validatorPanicReasonTag, r)), nil
		}
	}()
	err := j.v.Struct(ptr.Interface())
	if err == nil {
		return accept(), nil
	}
	var verrs validator.ValidationErrors
	if !errors.As(err, &verrs) {
		return reject(err.Error()), nil
	}
	var msgs []string
	for _, fe := range verrs {
		errs = append(errs, fieldError{Namespace: fe.StructNamespace(), Tag: fe.ActualTag()})
		msgs = append(msgs, fe.Error())
	}
	return reject(strings.Join(msgs, "; ")), errs
}

// openAPIJudge validates a document against a component schema of the
// generated OpenAPI document with kin-openapi, decoding it as a client
// would (encoding/json: every number a float64).
type openAPIJudge struct {
	schema *openapi3.Schema
}

func (j openAPIJudge) judge(doc []byte) Verdict {
	if j.schema == nil {
		return Verdict{}
	}
	var v any
	if err := json.Unmarshal(doc, &v); err != nil {
		return reject("json: " + err.Error())
	}
	if err := j.schema.VisitJSON(v, openapi3.MultiErrors(), openapi3.DisableSchemaErrorDetails(), openapi3.EnableFormatValidation(), openapi3.SetSchemaRegexCompiler(openapi.ECMARegexCompiler)); err != nil {
		return reject(err.Error())
	}
	return accept()
}

// crdJudge runs the API server's own pipeline for a create request of a
// custom resource, in process: decoding with the server's JSON library
// (integral numbers become int64), pruning unknown fields, dropping nulls
// of non-nullable fields, coercing metadata, defaulting, then the
// structural-schema validator, embedded-object and list-type checks and
// the CEL validator with the server's cost limits (see
// k8s.io/apiextensions-apiserver/pkg/apiserver/customresource_handler.go
// and pkg/registry/customresource/strategy.go).
type crdJudge struct {
	crd        *apiext.CustomResourceDefinition
	version    string
	structural *structuralschema.Structural
	validator  apiservervalidation.SchemaValidator
	cel        *cel.Validator
}

func newCRDJudge(crd *apiext.CustomResourceDefinition, version string) (*crdJudge, error) {
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
	sv, _, err := apiservervalidation.NewSchemaValidator(internal.OpenAPIV3Schema)
	if err != nil {
		return nil, fmt.Errorf("CRD %s: %w", crd.Name, err)
	}
	return &crdJudge{crd: crd, version: version, structural: s, validator: sv, cel: cel.NewValidator(s, true, celPerCallLimit)}, nil
}

func (j *crdJudge) judge(doc []byte) Verdict {
	if j == nil {
		return Verdict{}
	}
	v, _ := j.admit(doc)
	return v
}

// admit is the verdict and, when admitted, the object as the server keeps
// it (pruned and defaulted).
func (j *crdJudge) admit(doc []byte) (Verdict, map[string]any) {
	var obj map[string]any
	if err := utiljson.Unmarshal(doc, &obj); err != nil {
		return reject("decode: " + err.Error()), nil
	}
	if obj == nil {
		return reject("decode: the document is not an object"), nil
	}
	errs := j.validate(obj)
	if len(errs) == 0 {
		return accept(), obj
	}
	return reject(errs.ToAggregate().Error()), nil
}

// validate is the server's create path after decoding.
func (j *crdJudge) validate(obj map[string]any) field.ErrorList {
	structuralpruning.PruneWithOptions(obj, j.structural, true, structuralschema.UnknownFieldPathOptions{})
	structuraldefaulting.PruneNonNullableNullsWithoutDefaults(obj, j.structural)
	if err, _ := schemaobjectmeta.CoerceWithOptions(nil, obj, j.structural, false, schemaobjectmeta.CoerceOptions{}); err != nil {
		return field.ErrorList{err}
	}
	structuraldefaulting.Default(obj, j.structural)

	ctx := context.Background()
	var errs field.ErrorList
	errs = append(errs, apiservervalidation.ValidateCustomResource(nil, obj, j.validator)...)
	errs = append(errs, schemaobjectmeta.Validate(ctx, nil, obj, j.structural, false)...)
	errs = append(errs, structurallisttype.ValidateListSetsAndMaps(nil, j.structural, obj)...)
	if blocking(errs) {
		return errs
	}
	celErrs, _ := j.cel.Validate(ctx, nil, j.structural, obj, nil, celRuntimeCostBudget)
	return append(errs, celErrs...)
}

// blocking mirrors the strategy's hasBlockingErr: after these errors the
// server does not run the CEL rules.
func blocking(errs field.ErrorList) bool {
	for _, e := range errs {
		switch e.Type {
		case field.ErrorTypeNotSupported, field.ErrorTypeRequired, field.ErrorTypeTooLong, field.ErrorTypeTooMany, field.ErrorTypeTypeInvalid:
			return true
		}
	}
	return false
}
