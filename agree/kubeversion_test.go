package agree_test

import (
	"os"
	"path/filepath"
	"testing"

	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/util/version"
	"sigs.k8s.io/yaml"

	"github.com/modelgen/modelgen/agree"
	"github.com/modelgen/modelgen/internal/crdjudge"
)

// minKubernetes is the oldest Kubernetes whose API server accepts every CEL
// rule the generator writes (docs/crds.md): the ip and cidr keywords call
// the IP and CIDR libraries, which CRD rules may use from 1.31 on.
var minKubernetes = version.MajorMinor(1, 31)

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
// environment of Kubernetes ver (internal/crdjudge.Rules) and
// returns how many were refused.
func compileRules(t *testing.T, crds []*apiext.CustomResourceDefinition, ver *version.Version, refused func(crd, where, rule, msg string)) int {
	t.Helper()
	n := 0
	for _, crd := range crds {
		rules, err := crdjudge.Rules(crd, ver)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rules {
			if r.Refused != "" {
				n++
				refused(crd.Name, r.Where, r.Rule, r.Refused)
			}
		}
	}
	return n
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
