package agree

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/go-playground/validator/v10"
	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/modelgen/modelgen/internal/crdjudge"
	"github.com/modelgen/modelgen/openapi"
)

const (
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
// custom resource, in process (internal/crdjudge: decoding with
// the server's JSON library, pruning, defaulting, type and object
// metadata, the structural-schema validator, embedded-object and
// list-type checks, the CEL rules with the server's cost limits).
type crdJudge struct {
	*crdjudge.Server
}

func newCRDJudge(crd *apiext.CustomResourceDefinition, version string) (*crdJudge, error) {
	s, err := crdjudge.New(crd, version)
	if err != nil {
		return nil, err
	}
	return &crdJudge{s}, nil
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
	obj, err := crdjudge.Decode(doc)
	if err != nil {
		return reject(err.Error()), nil
	}
	if errs := j.Create(obj); len(errs) > 0 {
		return reject(errs.ToAggregate().Error()), nil
	}
	return accept(), obj
}
