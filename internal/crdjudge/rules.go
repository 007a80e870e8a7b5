package crdjudge

import (
	"fmt"
	"sort"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	celmodel "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	"k8s.io/apimachinery/pkg/util/version"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/environment"
	"k8s.io/component-base/compatibility"
)

// Rule is one CEL rule of a CRD as a server compiles it.
type Rule struct {
	// Where is "<crd> <version><path>", the path as .spec.items[].name,
	// {} for a map's values.
	Where string
	Rule  string
	// MaxCost is the estimated worst-case cost of one evaluation.
	MaxCost uint64
	// Refused is the compiler's complaint; empty when the rule compiles.
	Refused string
}

// Rules compiles every CEL rule of every version of crd with the
// environment an API server of version kube compiles a new CRD's rules
// with: the libraries of its minimum compatibility version (one minor
// below it), so that a rule the server admits still compiles after a
// rollback by one minor. A nil kube is this module's own apiserver
// library's default. Rules are sorted by place.
func Rules(crd *apiext.CustomResourceDefinition, kube *version.Version) ([]Rule, error) {
	env := environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion())
	if kube != nil {
		env = environment.MustBaseEnvSet(compatibility.NewEffectiveVersionFromString(kube.String(), "", "").MinCompatibilityVersion())
	}
	var out []Rule
	for _, v := range crd.Spec.Versions {
		if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			continue
		}
		internal := &apiextensions.JSONSchemaProps{}
		if err := apiext.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(v.Schema.OpenAPIV3Schema, internal, nil); err != nil {
			return nil, fmt.Errorf("%s %s: %w", crd.Name, v.Name, err)
		}
		s, err := structuralschema.NewStructural(internal)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", crd.Name, v.Name, err)
		}
		var walkErr error
		walk(s, true, crd.Name+" "+v.Name, func(node *structuralschema.Structural, root bool, where string) {
			results, err := cel.Compile(node, celmodel.SchemaDeclType(node, root), celconfig.PerCallLimit, env, cel.NewExpressionsEnvLoader())
			if err != nil {
				walkErr = fmt.Errorf("%s: %w", where, err)
				return
			}
			for i, r := range results {
				rule := Rule{Where: where, Rule: node.XValidations[i].Rule, MaxCost: r.MaxCost}
				if r.Error != nil {
					rule.Refused = r.Error.Detail
				}
				out = append(out, rule)
			}
		})
		if walkErr != nil {
			return nil, walkErr
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Where < out[j].Where })
	return out, nil
}

// walk calls visit on every node of s that carries CEL rules, in the order
// of property names.
func walk(s *structuralschema.Structural, root bool, where string, visit func(*structuralschema.Structural, bool, string)) {
	if s == nil {
		return
	}
	if len(s.XValidations) > 0 {
		visit(s, root, where)
	}
	names := make([]string, 0, len(s.Properties))
	for name := range s.Properties {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		p := s.Properties[name]
		walk(&p, false, where+"."+name, visit)
	}
	if s.Items != nil {
		walk(s.Items, false, where+"[]", visit)
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil {
		walk(s.AdditionalProperties.Structural, false, where+"{}", visit)
	}
}
