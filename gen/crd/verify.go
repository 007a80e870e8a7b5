package crd

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	apivalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apimachinery/pkg/util/version"
	"k8s.io/kube-openapi/pkg/validation/spec"

	"github.com/modelgen/modelgen/model"
)

// Verify runs the API server's own CRD validation on a generated CRD: the
// conversion to the internal type, ValidateCustomResourceDefinition (which
// includes the structural-schema rules, CEL compilation and the static CEL
// cost budget). Each problem becomes a diagnostic at the Go field it comes
// from.
func Verify(r Result) model.Diagnostics {
	diags := unknownFormats(r)
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
		if e.Field == approvalField {
			msg += fmt.Sprintf("; the group %s is protected (it ends in .k8s.io or .kubernetes.io): add the line\n\t%s\nto the comment of type %s, with the URL of the approved API review (or a value starting with \"unapproved\")",
				r.CRD.Spec.Group, ApprovalMarker("<URL of the API review>"), r.Root.Name)
		}
		if strings.Contains(e.Detail, "cost") {
			msg += " (add maxItems to the slices, maxProperties to the maps and maxLength to the strings the rule reads: validate max=N)"
		}
		diags.Errorf(pos, "%s", msg)
	}
	return diags
}

const approvalField = "metadata.annotations[api-approved.kubernetes.io]"

// ApprovalMarker is the marker that gives a CRD of a protected group the
// approval annotation the API server demands.
func ApprovalMarker(value string) string {
	return `// +kubebuilder:metadata:annotations="api-approved.kubernetes.io=` + value + `"`
}

var (
	propertyStep = regexp.MustCompile(`properties\[([^\]]+)\]|items|additionalProperties`)
	versionStep  = regexp.MustCompile(`versions\[(\d+)\]`)
)

// locate maps a validation path such as
// spec.validation.openAPIV3Schema.properties[spec].properties[amount].x-kubernetes-validations[0].rule
// (or spec.versions[0].schema...) back to the Go field it describes.
func locate(r Result, path string) (model.Pos, string) {
	t := r.Root
	if m := versionStep.FindStringSubmatch(path); m != nil {
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

// serverVersion is the Kubernetes version whose format list is checked.
var serverVersion = version.MajorMinor(1, 37)

// unknownFormats reports every format the API server would silently drop
// (apiextensions-apiserver's formats list): such a format validates nothing
// on the server, so the CRD would promise a check it does not make.
func unknownFormats(r Result) model.Diagnostics {
	var diags model.Diagnostics
	for i, v := range r.CRD.Spec.Versions {
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			continue
		}
		w := formatWalk{r: r, diags: &diags}
		w.walk(v.Schema.OpenAPIV3Schema, []string{fmt.Sprintf("spec.versions[%d].schema.openAPIV3Schema", i)})
	}
	return diags
}

// formatWalk reports the unknown formats of a CRD's schema.
type formatWalk struct {
	r     Result
	diags *model.Diagnostics
}

// walk checks the format of s and of every schema below it. steps are
// the steps of s's path, joined only when a format is reported (a path
// string per node was most of the check's allocations).
func (w formatWalk) walk(s *apiext.JSONSchemaProps, steps []string) {
	if s == nil {
		return
	}
	if s.Format != "" {
		w.check(s.Format, s.Type, steps)
	}
	var p apiext.JSONSchemaProps // one per node, not per property
	for name := range s.Properties {
		p = s.Properties[name]
		w.walk(&p, append(steps, ".properties[", name, "]"))
	}
	if s.Items != nil {
		w.walk(s.Items.Schema, append(steps, ".items"))
	}
	if s.AdditionalProperties != nil {
		w.walk(s.AdditionalProperties.Schema, append(steps, ".additionalProperties"))
	}
	for _, group := range [][]apiext.JSONSchemaProps{s.AllOf, s.AnyOf, s.OneOf} {
		for i := range group {
			w.walk(&group[i], steps)
		}
	}
}

func (w formatWalk) check(format, typ string, steps []string) {
	sp := &spec.Schema{SchemaProps: spec.SchemaProps{Format: format}}
	if typ != "" {
		sp.Type = spec.StringOrArray{typ}
	}
	for _, f := range apivalidation.GetUnrecognizedFormats(sp, serverVersion) {
		pos, where := locate(w.r, strings.Join(steps, ""))
		w.diags.Errorf(pos, "CRD %s: %s: the API server ignores format %q on a %s; use a pattern (validate keyword or +kubebuilder:validation:Pattern) instead", w.r.CRD.Name, where, f, typ)
	}
}
