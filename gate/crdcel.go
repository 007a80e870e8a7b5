package gate

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	apiextinternal "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	celmodel "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	kubeversion "k8s.io/apimachinery/pkg/util/version"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/environment"
	"k8s.io/component-base/compatibility"
)

// celEnvFor is the environment an API server of Kubernetes kube compiles a
// new CRD rule with: the CEL libraries of its minimum compatibility
// version (one minor below it, so that the rule still compiles after a
// rollback), as internal/crdjudge's Rules does.
func celEnvFor(kube *kubeversion.Version) *environment.EnvSet {
	return environment.MustBaseEnvSet(compatibility.NewEffectiveVersionFromString(kube.String(), "", "").MinCompatibilityVersion())
}

// celUnavailable compiles every CEL rule of the revision that the base does
// not have (the server compiles rules it already stores with a lenient
// environment) with the environment of kube, the oldest Kubernetes the
// CRDs are installed on, and reports each rule that does not compile there
// but does with this gate's own library (which crd-refused judges).
func celUnavailable(base, rev []crdSource, kube *kubeversion.Version) []CRDChange {
	stored := map[string]map[string]bool{}
	for _, c := range base {
		stored[c.crd.Name] = map[string]bool{}
		for _, v := range c.crd.Spec.Versions {
			if v.Schema != nil {
				collectRules(v.Schema.OpenAPIV3Schema, stored[c.crd.Name])
			}
		}
	}
	target := celEnvFor(kube)
	current := environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion())
	rule := crdRuleByID[CRDRuleRuleUnavailable]
	var out []CRDChange
	sorted := slices.Clone(rev)
	slices.SortFunc(sorted, func(a, b crdSource) int { return strings.Compare(a.crd.Name, b.crd.Name) })
	for _, c := range sorted {
		for _, v := range c.crd.Spec.Versions {
			if v.Schema == nil {
				continue
			}
			s, err := structuralOf(v.Schema.OpenAPIV3Schema)
			if err != nil {
				continue // refused as not structural when read
			}
			walkRules(s, true, "", func(node *structuralschema.Structural, root bool, at string) {
				for i, x := range node.XValidations {
					if stored[c.crd.Name][x.Rule] {
						continue
					}
					refused := compileRule(node, root, i, target)
					if refused == "" || compileRule(node, root, i, current) != "" {
						continue
					}
					msg := fmt.Sprintf(rule.Format, code(x.Rule), kube.String(), refused)
					if since := firstCompiling(node, root, i, kube); since != "" {
						msg += " (the rule needs Kubernetes " + since + " or later)"
					}
					out = append(out, CRDChange{ID: rule.ID, Level: rule.Level, CRD: c.crd.Name, Version: v.Name, Path: cmpOr(at, "."), Message: msg, Reason: rule.Reason})
				}
			})
		}
	}
	return out
}

// compileRule compiles rule i of node alone with env; "" when it compiles.
func compileRule(node *structuralschema.Structural, root bool, i int, env *environment.EnvSet) string {
	one := *node
	one.XValidations = node.XValidations[i : i+1]
	results, err := cel.Compile(&one, celmodel.SchemaDeclType(&one, root), celconfig.PerCallLimit, env, cel.NewExpressionsEnvLoader())
	switch {
	case err != nil:
		return err.Error()
	case len(results) == 1 && results[0].Error != nil:
		return strings.Join(strings.Fields(results[0].Error.Detail), " ")
	}
	return ""
}

// firstCompiling is the first Kubernetes minor after kube, up to this
// gate's own, whose server compiles rule i.
func firstCompiling(node *structuralschema.Structural, root bool, i int, kube *kubeversion.Version) string {
	own := environment.DefaultCompatibilityVersion().AddMinor(1)
	for v := kube.AddMinor(1); !v.GreaterThan(own); v = v.AddMinor(1) {
		if compileRule(node, root, i, celEnvFor(v)) == "" {
			return fmt.Sprintf("%d.%d", v.Major(), v.Minor())
		}
	}
	return ""
}

func structuralOf(s *apiext.JSONSchemaProps) (st *structuralschema.Structural, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the schema cannot be read: %v", r)
		}
	}()
	var internal apiextinternal.JSONSchemaProps
	if err := apiext.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(s, &internal, nil); err != nil {
		return nil, err
	}
	return structuralschema.NewStructural(&internal)
}

func collectRules(s *apiext.JSONSchemaProps, into map[string]bool) {
	if s == nil {
		return
	}
	for _, r := range s.XValidations {
		into[r.Rule] = true
	}
	for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
		p := s.Properties[name]
		collectRules(&p, into)
	}
	if s.Items != nil {
		collectRules(s.Items.Schema, into)
	}
	if s.AdditionalProperties != nil {
		collectRules(s.AdditionalProperties.Schema, into)
	}
	for _, list := range [][]apiext.JSONSchemaProps{s.AllOf, s.AnyOf, s.OneOf} {
		for i := range list {
			collectRules(&list[i], into)
		}
	}
}

// walkRules calls visit on every node of s that carries CEL rules, with
// its path (.spec.items[].name, {} for a map's values).
func walkRules(s *structuralschema.Structural, root bool, at string, visit func(*structuralschema.Structural, bool, string)) {
	if s == nil {
		return
	}
	if len(s.XValidations) > 0 {
		visit(s, root, at)
	}
	for _, name := range slices.Sorted(maps.Keys(s.Properties)) {
		p := s.Properties[name]
		walkRules(&p, false, at+"."+name, visit)
	}
	if s.Items != nil {
		walkRules(s.Items, false, at+"[]", visit)
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil {
		walkRules(s.AdditionalProperties.Structural, false, at+"{}", visit)
	}
}
