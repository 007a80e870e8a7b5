package crd

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"

	"github.com/modelgen/modelgen/model"
)

// Verify runs the API server's own CRD validation on a generated CRD: the
// conversion to the internal type, ValidateCustomResourceDefinition (which
// includes the structural-schema rules, CEL compilation and the static CEL
// cost budget). Each problem becomes a diagnostic at the Go field it comes
// from.
func Verify(r Result) model.Diagnostics {
	var diags model.Diagnostics
	internal := &apiextensions.CustomResourceDefinition{}
	if err := apiext.Convert_v1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition(r.CRD, internal, nil); err != nil {
		diags.Errorf(r.Root.Pos, "the API server cannot convert the CRD %s: %v", r.CRD.Name, err)
		return diags
	}
	// As the server's create strategy does, record the storage version.
	for _, v := range internal.Spec.Versions {
		if v.Storage {
			internal.Status.StoredVersions = append(internal.Status.StoredVersions, v.Name)
		}
	}
	for _, e := range validation.ValidateCustomResourceDefinition(context.Background(), internal) {
		pos, where := locate(r, e.Field)
		detail := e.Detail
		if detail == "" {
			detail = e.ErrorBody()
		}
		msg := fmt.Sprintf("the API server would reject CRD %s: %s: %s: %s", r.CRD.Name, where, e.Type, detail)
		if strings.Contains(e.Detail, "cost") {
			msg += " (add maxItems to the slices, maxProperties to the maps and maxLength to the strings the rule reads: validate max=N)"
		}
		diags.Errorf(pos, "%s", msg)
	}
	return diags
}

var propertyStep = regexp.MustCompile(`properties\[([^\]]+)\]|items|additionalProperties`)

// locate maps a validation path such as
// spec.validation.openAPIV3Schema.properties[spec].properties[amount].x-kubernetes-validations[0].rule
// (or spec.versions[0].schema...) back to the Go field it describes.
func locate(r Result, path string) (model.Pos, string) {
	t := r.Root
	if m := regexp.MustCompile(`versions\[(\d+)\]`).FindStringSubmatch(path); m != nil {
		var i int
		fmt.Sscan(m[1], &i)
		if i < len(r.Roots) {
			t = r.Roots[i]
		}
	}
	pos := t.Pos
	var jsonPath []string
	for _, step := range propertyStep.FindAllStringSubmatch(path, -1) {
		if step[1] == "" {
			continue
		}
		jsonPath = append(jsonPath, step[1])
		if t == nil {
			continue
		}
		f := fieldByJSON(t, step[1])
		if f == nil {
			t = nil
			continue
		}
		pos = f.Pos
		if f.Validate != nil {
			pos = f.Validate.Raw.Pos
		}
		t = structOf(f.Type)
	}
	where := "." + strings.Join(jsonPath, ".")
	if len(jsonPath) == 0 {
		where = path
	}
	return pos, where
}

func fieldByJSON(t *model.Type, name string) *model.Field {
	for _, f := range t.Fields {
		if f.JSONName == name {
			return f
		}
		if f.Inline {
			if inner := structOf(f.Type); inner != nil {
				if g := fieldByJSON(inner, name); g != nil {
					return g
				}
			}
		}
	}
	return nil
}

func structOf(r *model.TypeRef) *model.Type {
	for r != nil {
		if r.Named != nil && r.Named.TypeKind == model.TypeStruct {
			return r.Named
		}
		switch r.Kind {
		case model.KindPointer, model.KindSlice, model.KindMap:
			r = r.Elem
		default:
			return nil
		}
	}
	return nil
}
