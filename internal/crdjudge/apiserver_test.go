package crdjudge_test

import (
	"strings"
	"testing"

	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apimachinery/pkg/util/version"

	"github.com/modelgen/modelgen/internal/crdjudge"
)

func ptr[T any](v T) *T { return &v }

// widgets is a namespaced CRD with a little of everything the server
// checks: bounds, a default, a list-type set, a CEL rule on spec and a
// transition rule on status.
func widgets() *apiext.CustomResourceDefinition {
	spec := apiext.JSONSchemaProps{
		Type: "object",
		Properties: map[string]apiext.JSONSchemaProps{
			"size": {Type: "integer", Maximum: ptr(10.0)},
			"name": {Type: "string", MaxLength: ptr[int64](5)},
			"mode": {Type: "string", Default: &apiext.JSON{Raw: []byte(`"a"`)}},
			"tags": {Type: "array", XListType: ptr("set"), MaxItems: ptr[int64](4), Items: &apiext.JSONSchemaPropsOrArray{Schema: &apiext.JSONSchemaProps{Type: "string", MaxLength: ptr[int64](8)}}},
		},
		XValidations: apiext.ValidationRules{{Rule: "!has(self.size) || self.size > 2", Message: "size must exceed 2"}},
	}
	status := apiext.JSONSchemaProps{
		Type:         "object",
		Properties:   map[string]apiext.JSONSchemaProps{"phase": {Type: "string", MaxLength: ptr[int64](10)}},
		XValidations: apiext.ValidationRules{{Rule: "!has(oldSelf.phase) || oldSelf.phase != 'Done' || self.phase == 'Done'", Message: "Done is final"}},
	}
	return &apiext.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "widgets.example.com"},
		Spec: apiext.CustomResourceDefinitionSpec{
			Group: "example.com",
			Names: apiext.CustomResourceDefinitionNames{Plural: "widgets", Singular: "widget", Kind: "Widget", ListKind: "WidgetList"},
			Scope: apiext.NamespaceScoped,
			Versions: []apiext.CustomResourceDefinitionVersion{{
				Name: "v1", Served: true, Storage: true,
				Subresources: &apiext.CustomResourceSubresources{Status: &apiext.CustomResourceSubresourceStatus{}},
				Schema: &apiext.CustomResourceValidation{OpenAPIV3Schema: &apiext.JSONSchemaProps{
					Type:       "object",
					Properties: map[string]apiext.JSONSchemaProps{"spec": spec, "status": status},
				}},
			}},
		},
	}
}

func server(t *testing.T) *crdjudge.Server {
	t.Helper()
	s, err := crdjudge.New(widgets(), "v1")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func decode(t *testing.T, doc string) map[string]any {
	t.Helper()
	obj, err := crdjudge.Decode([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	return obj
}

// says fails the test unless errs, joined, contain each of want (none:
// errs must be empty).
func says(t *testing.T, what string, errs field.ErrorList, want ...string) {
	t.Helper()
	if len(want) == 0 {
		if len(errs) > 0 {
			t.Errorf("%s: refused: %v", what, errs)
		}
		return
	}
	if len(errs) == 0 {
		t.Errorf("%s: admitted, want %q", what, want)
		return
	}
	got := errs.ToAggregate().Error()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("%s: errors %s do not say %q", what, got, w)
		}
	}
}

func TestCreatePrunesAndDefaults(t *testing.T) {
	s := server(t)
	obj := s.Object(map[string]any{"spec": decode(t, `{"size":3,"unknown":1}`)})
	says(t, "a valid widget", s.Create(obj))
	spec := obj["spec"].(map[string]any)
	if _, ok := spec["unknown"]; ok {
		t.Errorf("the unknown field is not pruned: %v", spec)
	}
	if spec["mode"] != "a" {
		t.Errorf("mode is not defaulted: %v", spec)
	}
	if _, ok := spec["size"].(int64); !ok {
		t.Errorf("size decoded as %T, want int64 as the server's JSON library", spec["size"])
	}
}

func TestCreateRefuses(t *testing.T) {
	s := server(t)
	for _, c := range []struct {
		name string
		obj  map[string]any
		want []string
	}{
		{"wrong kind", map[string]any{"apiVersion": "example.com/v1", "kind": "Gadget", "metadata": map[string]any{"name": "x", "namespace": "default"}}, []string{"kind: Invalid value", "must be Widget"}},
		{"wrong apiVersion", map[string]any{"apiVersion": "example.com/v2", "kind": "Widget", "metadata": map[string]any{"name": "x", "namespace": "default"}}, []string{"must be example.com/v1"}},
		{"no namespace", map[string]any{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": map[string]any{"name": "x"}}, []string{"metadata.namespace: Required value"}},
		{"a bad name", map[string]any{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": map[string]any{"name": "X_", "namespace": "default"}}, []string{"metadata.name: Invalid value"}},
		{"over the maximum", s.Object(map[string]any{"spec": map[string]any{"size": int64(11)}}), []string{"spec.size: Invalid value", "less than or equal to 10"}},
		{"a CEL rule", s.Object(map[string]any{"spec": map[string]any{"size": int64(2)}}), []string{"size must exceed 2"}},
		{"a duplicate in a set", s.Object(map[string]any{"spec": map[string]any{"tags": []any{"a", "a"}}}), []string{"spec.tags[1]: Duplicate value"}},
		// a too-long string blocks the CEL rules, as it does on a server
		{"a blocking error", s.Object(map[string]any{"spec": map[string]any{"name": "toolong", "size": int64(1)}}), []string{"spec.name: Too long", "some validation rules were not checked"}},
	} {
		errs := s.Create(c.obj)
		says(t, c.name, errs, c.want...)
		if c.name == "a blocking error" && strings.Contains(errs.ToAggregate().Error(), "size must exceed 2") {
			t.Errorf("%s: the CEL rule ran after a blocking error: %v", c.name, errs)
		}
	}
}

func TestUpdateRatchetsAndSeesOldSelf(t *testing.T) {
	s := server(t)
	stored := func(spec, status map[string]any) map[string]any {
		return s.Object(map[string]any{"spec": spec, "status": status})
	}
	// a value stored before the schema tightened may stay as it is...
	says(t, "an unchanged invalid name", s.Update(
		stored(map[string]any{"name": "toolong", "tags": []any{"b"}}, nil),
		stored(map[string]any{"name": "toolong"}, nil)))
	// ...but not change to another invalid one, nor be created so
	says(t, "a changed invalid name", s.Update(
		stored(map[string]any{"name": "toolonger"}, nil),
		stored(map[string]any{"name": "toolong"}, nil)), "spec.name: Too long")
	says(t, "creating an invalid name", s.Create(stored(map[string]any{"name": "toolong"}, nil)), "spec.name: Too long")
	// transition rules read oldSelf
	says(t, "leaving Done", s.Update(
		stored(map[string]any{}, map[string]any{"phase": "Open"}),
		stored(map[string]any{}, map[string]any{"phase": "Done"})), "Done is final")
	says(t, "to Done", s.Update(
		stored(map[string]any{}, map[string]any{"phase": "Done"}),
		stored(map[string]any{}, map[string]any{"phase": "Open"})))
	// an update changes no immutable metadata
	obj := stored(map[string]any{}, nil)
	obj["metadata"].(map[string]any)["uid"] = "other"
	old := stored(map[string]any{}, nil)
	old["metadata"].(map[string]any)["uid"] = "one"
	says(t, "a changed uid", s.Update(obj, old), "metadata.uid: Invalid value", "field is immutable")
}

func TestNewRefusesWhatTheServerRefuses(t *testing.T) {
	bad := widgets()
	bad.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"].XValidations[0].Rule = "self.nosuch > 1"
	if _, err := crdjudge.New(bad, "v1"); err == nil || !strings.Contains(err.Error(), "nosuch") {
		t.Errorf("a rule that does not compile: New says %v", err)
	}
	unbounded := widgets()
	unbounded.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"].Properties["tags"].Items.Schema.MaxLength = nil
	unbounded.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"].XValidations[0].Rule = "self.tags.all(t, t.matches('^a+$'))"
	unbounded.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"].Properties["tags"] = func() apiext.JSONSchemaProps {
		p := unbounded.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"].Properties["tags"]
		p.MaxItems = nil
		return p
	}()
	if _, err := crdjudge.New(unbounded, "v1"); err == nil || !strings.Contains(err.Error(), "cost") {
		t.Errorf("a rule over the cost budget: New says %v", err)
	}
	if _, err := crdjudge.New(widgets(), "v2"); err == nil {
		t.Error("a version the CRD does not have: no error")
	}
}

func TestRules(t *testing.T) {
	def := widgets()
	rules, err := crdjudge.Rules(def, version.MajorMinor(1, 31))
	if err != nil {
		t.Fatal(err)
	}
	var where []string
	for _, r := range rules {
		where = append(where, r.Where)
		if r.Refused != "" || r.MaxCost == 0 {
			t.Errorf("%s %q: refused %q, cost %d", r.Where, r.Rule, r.Refused, r.MaxCost)
		}
	}
	if got := strings.Join(where, ","); got != "widgets.example.com v1.spec,widgets.example.com v1.status" {
		t.Errorf("rules at %s", got)
	}
	// a server compiles new rules with the environment of one minor below
	// it: a 1.30 server (1.29's environment) lacks the IP library
	def.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties["spec"].XValidations[0].Rule = "!has(self.name) || isIP(self.name)"
	for kube, refused := range map[string]bool{"1.30": true, "1.31": false} {
		rules, err := crdjudge.Rules(def, version.MustParseGeneric(kube))
		if err != nil {
			t.Fatal(err)
		}
		if got := rules[0].Refused != ""; got != refused {
			t.Errorf("isIP on Kubernetes %s: refused %v (%q), want %v", kube, got, rules[0].Refused, refused)
		}
	}
}
