package schema

import (
	"regexp"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	celmodel "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/environment"

	"github.com/modelgen/modelgen/model"
)

// TestCompileAtMinIsTheServersCompile: the check at MinKubernetes gives,
// rule by rule, the errors the API server's own cel.Compile gives with a
// MinKubernetes server's environment: rules that compile, that do not,
// that are not bool, whose messageExpression fails or is not a string, a
// regular expression that does not compile, rules that read oldSelf as an
// optional, that need a newer library, and a property named as a CEL
// keyword (which a MinKubernetes server does not declare).
func TestCompileAtMinIsTheServersCompile(t *testing.T) {
	yes := true
	props := &apiext.JSONSchemaProps{
		Type: "object",
		Properties: map[string]apiext.JSONSchemaProps{
			"name":      {Type: "string", MaxLength: ptr(int64(63))},
			"namespace": {Type: "string", MaxLength: ptr(int64(63))},
			"count":     {Type: "integer"},
			"items":     {Type: "array", MaxItems: ptr(int64(8)), Items: &apiext.JSONSchemaPropsOrArray{Schema: &apiext.JSONSchemaProps{Type: "string", MaxLength: ptr(int64(10))}}},
		},
		XValidations: apiext.ValidationRules{
			{Rule: "self.count >= 0"},
			{Rule: "self.nosuch > 0"},
			{Rule: "self.count"},
			{Rule: "self.count > 0", MessageExpression: "'bad: ' + self.count"},
			{Rule: "self.count > 0", MessageExpression: "self.count"},
			{Rule: "self.count > 0", MessageExpression: "'count ' + string(self.count)"},
			{Rule: "self.name.matches('[')"},
			{Rule: "self.name.matches('^a')"},
			{Rule: "!oldSelf.hasValue() || oldSelf.value().count <= self.count", OptionalOldSelf: &yes},
			{Rule: "self.count == oldSelf.count"},
			{Rule: "isSemver(self.name)"},
			{Rule: "!format.dns1123Label().validate(self.name).hasValue()"},
			{Rule: "self.items.all(i, i.size() > 0)"},
			{Rule: "self.namespace.size() > 0"},
			{Rule: "self.__namespace__.size() > 0"},
			{Rule: "   "},
		},
	}
	internal := &apiextensions.JSONSchemaProps{}
	if err := apiext.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(props, internal, nil); err != nil {
		t.Fatal(err)
	}
	s, err := structuralschema.NewStructural(internal)
	if err != nil {
		t.Fatal(err)
	}
	declType := celmodel.SchemaDeclType(s, true)
	c := &ruleCompiler{diags: &model.Diagnostics{}, envs: map[uint]*environment.EnvSet{}}
	got, err := c.compileAtMin(s, declType)
	if err != nil {
		t.Fatal(err)
	}
	want, err := cel.Compile(s, declType, celconfig.PerCallLimit, c.serverEnv(MinKubernetes.Minor()), cel.NewExpressionsEnvLoader())
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d results, the server's compile gives %d", len(got), len(want))
	}
	failed := 0
	for i := range want {
		rule := props.XValidations[i].Rule
		if g, w := errText(got[i].Error), errText(want[i].Error); g != w {
			t.Errorf("rule %q: error\n%s\nthe server's:\n%s", rule, g, w)
		}
		if g, w := errText(got[i].MessageExpressionError), errText(want[i].MessageExpressionError); g != w {
			t.Errorf("rule %q: messageExpression error\n%s\nthe server's:\n%s", rule, g, w)
		}
		if want[i].Error != nil || want[i].MessageExpressionError != nil {
			failed++
		}
	}
	// the cases cover both outcomes and every kind of failure above
	if failed < 8 || failed == len(want) {
		t.Errorf("%d of %d rules fail on the server: the cases no longer cover what they name", failed, len(want))
	}
}

// selfTypeName is the server's per-compilation name of self's type,
// which its errors may name.
var selfTypeName = regexp.MustCompile(`selfType\d+`)

func errText(e *apiservercel.Error) string {
	if e == nil {
		return ""
	}
	return string(e.Type) + ": " + selfTypeName.ReplaceAllString(e.Detail, "selfType")
}

func ptr[T any](v T) *T { return &v }
