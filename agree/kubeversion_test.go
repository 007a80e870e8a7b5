package agree_test

import (
	"os"
	"path/filepath"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	celmodel "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	"k8s.io/apimachinery/pkg/util/version"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/environment"
	"k8s.io/component-base/compatibility"
	"sigs.k8s.io/yaml"

	"github.com/modelgen/modelgen/agree"
)

// minKubernetes is the oldest Kubernetes whose API server accepts every CEL
// rule the generator writes (docs/crds.md): the ip and cidr keywords call
// the IP and CIDR libraries, which CRD rules may use from 1.31 on.
var minKubernetes = version.MajorMinor(1, 31)

// serverEnv is the CEL environment an API server of version v compiles the
// rules of a CRD it is given with: new expressions get the libraries of
// the server's minimum compatibility version (one minor below it, as
// environment.DefaultCompatibilityVersion reads it), so that a rule a
// server admits still compiles after a rollback by one minor.
func serverEnv(v *version.Version) *environment.EnvSet {
	return environment.MustBaseEnvSet(compatibility.NewEffectiveVersionFromString(v.String(), "", "").MinCompatibilityVersion())
}

// TestCELRulesCompileAtMinimumKubernetes compiles every CEL rule of the
// agreement suite's CRDs (every keyword the registry maps, on every kind)
// and of the examples' CRDs with the CEL environment a 1.31 API server
// compiles a CRD's new rules with (compatibility version 1.30); and checks
// that a 1.30 server's environment refuses some, so that 1.31 is the
// minimum, not merely a version that works.
func TestCELRulesCompileAtMinimumKubernetes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the agreement suite's CRDs, over a minute on 2 busy cores (-short)")
	}
	h, err := agree.Suite()
	if err != nil {
		t.Fatal(err)
	}
	crds := h.CRDs()
	files, err := filepath.Glob("../examples/config/crd/bases/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no example CRDs: %v", err)
	}
	for _, f := range files {
		crds = append(crds, readCRD(t, f))
	}
	rules, refused := 0, compileRules(t, crds, minKubernetes, func(crd, where, rule, msg string) {
		t.Errorf("%s %s: CEL rule %q does not compile on Kubernetes %s: %s", crd, where, rule, minKubernetes, msg)
	})
	for _, c := range crds {
		rules += countRules(c)
	}
	if rules < 100 || refused != 0 {
		t.Fatalf("%d rules compiled, %d refused at %s", rules, refused, minKubernetes)
	}
	older := version.MajorMinor(1, 30)
	if n := compileRules(t, crds, older, func(string, string, string, string) {}); n == 0 {
		t.Errorf("every rule compiles on Kubernetes %s too: the minimum in docs/crds.md is too high", older)
	}
}

func readCRD(t *testing.T, file string) *apiext.CustomResourceDefinition {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var crd apiext.CustomResourceDefinition
	if err := yaml.UnmarshalStrict(data, &crd); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return &crd
}

// compileRules compiles the rules of every CRD's schemas with the CEL
// environment of Kubernetes ver and returns how many were refused.
func compileRules(t *testing.T, crds []*apiext.CustomResourceDefinition, ver *version.Version, refused func(crd, where, rule, msg string)) int {
	t.Helper()
	env := serverEnv(ver)
	n := 0
	for _, crd := range crds {
		for _, v := range crd.Spec.Versions {
			if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
				continue
			}
			internal := &apiextensions.JSONSchemaProps{}
			if err := apiext.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(v.Schema.OpenAPIV3Schema, internal, nil); err != nil {
				t.Fatalf("%s %s: %v", crd.Name, v.Name, err)
			}
			s, err := structuralschema.NewStructural(internal)
			if err != nil {
				t.Fatalf("%s %s: %v", crd.Name, v.Name, err)
			}
			walkStructural(s, true, crd.Name+" "+v.Name, func(node *structuralschema.Structural, root bool, where string) {
				results, err := cel.Compile(node, celmodel.SchemaDeclType(node, root), celconfig.PerCallLimit, env, cel.NewExpressionsEnvLoader())
				if err != nil {
					t.Fatalf("%s: %v", where, err)
				}
				for i, r := range results {
					if r.Error != nil {
						n++
						refused(crd.Name, where, node.XValidations[i].Rule, r.Error.Detail)
					}
				}
			})
		}
	}
	return n
}

// walkStructural calls visit on every node of s that carries CEL rules.
func walkStructural(s *structuralschema.Structural, root bool, where string, visit func(*structuralschema.Structural, bool, string)) {
	if s == nil {
		return
	}
	if len(s.XValidations) > 0 {
		visit(s, root, where)
	}
	for name, p := range s.Properties {
		walkStructural(&p, false, where+"."+name, visit)
	}
	if s.Items != nil {
		walkStructural(s.Items, false, where+"[]", visit)
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil {
		walkStructural(s.AdditionalProperties.Structural, false, where+"{}", visit)
	}
}

func countRules(crd *apiext.CustomResourceDefinition) int {
	n := 0
	var walk func(*apiext.JSONSchemaProps)
	walk = func(p *apiext.JSONSchemaProps) {
		if p == nil {
			return
		}
		n += len(p.XValidations)
		for _, c := range p.Properties {
			walk(&c)
		}
		if p.Items != nil {
			walk(p.Items.Schema)
		}
		if p.AdditionalProperties != nil {
			walk(p.AdditionalProperties.Schema)
		}
	}
	for _, v := range crd.Spec.Versions {
		if v.Schema != nil {
			walk(v.Schema.OpenAPIV3Schema)
		}
	}
	return n
}
