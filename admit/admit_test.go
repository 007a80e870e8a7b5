package admit_test

import (
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	validator "github.com/go-playground/validator/v10"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/modelgen/modelgen/admit"
	"github.com/modelgen/modelgen/rbac"
)

// allowed is what admit may import besides the standard library: what the
// generated webhook imports anyway.
var allowed = []string{
	"github.com/go-playground/validator/v10",
	"k8s.io/apimachinery/pkg/api/errors",
	"k8s.io/apimachinery/pkg/runtime/schema",
	"k8s.io/apimachinery/pkg/util/validation/field",
	"github.com/modelgen/modelgen/rbac",
}

func goList(t *testing.T, pkgs ...string) []string {
	t.Helper()
	out, err := exec.Command("go", append([]string{"list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}"}, pkgs...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	return strings.Fields(string(out))
}

// TestDependsOnlyOnWhatTheWebhookImports keeps the run time of the webhooks
// as light as the generated code already is: every package admit depends
// on is the standard library's or one of allowed's dependencies.
func TestDependsOnlyOnWhatTheWebhookImports(t *testing.T) {
	ok := map[string]bool{"github.com/modelgen/modelgen/admit": true}
	for _, p := range goList(t, allowed...) {
		ok[p] = true
	}
	for _, p := range goList(t, "github.com/modelgen/modelgen/admit") {
		if !ok[p] {
			t.Errorf("admit depends on %s; it may import only the standard library and %s", p, strings.Join(allowed, ", "))
		}
	}
}

type Item struct {
	Name string `validate:"required"`
}

type Spec struct {
	Items  []Item            `validate:"dive"`
	Labels map[string]string `validate:"dive,keys,lowercase,endkeys"`
	Code   string            `validate:"omitempty,sku"`
}

type Shop struct {
	Spec Spec
}

var table = &admit.Table{
	Fields: map[string]admit.Field{
		"t.Shop.Spec":   {JSON: "spec", Type: "t.Spec"},
		"t.Spec.Items":  {JSON: "items", Type: "t.Item", Dims: "s"},
		"t.Spec.Labels": {JSON: "labels", Dims: "m"},
		"t.Spec.Code":   {JSON: "code"},
		"t.Item.Name":   {JSON: "name"},
	},
	Messages: map[string]string{"required": "must be set", "lowercase": "must be lowercase"},
}

func errorStrings(errs field.ErrorList) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

// TestValidateReportsJSONPaths: list indexes, map keys holding dots and
// brackets, and the keyword's message.
func TestValidateReportsJSONPaths(t *testing.T) {
	v := validator.New()
	v.RegisterValidation("sku", func(validator.FieldLevel) bool { return true })
	obj := &Shop{Spec: Spec{Items: []Item{{Name: "a"}, {}}, Labels: map[string]string{"A.b[1]": "x"}}}
	got := strings.Join(errorStrings(table.Validate(v, "t.Shop", obj)), "\n")
	for _, want := range []string{
		`spec.items[1].name: Required value: must be set (required)`,
		`spec.labels[A.b[1]]: Invalid value: "A.b[1]": must be lowercase (lowercase)`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("want %q in\n%s", want, got)
		}
	}
}

// TestValidateFailsClosedOnAnUnknownKeyword: a validator without the
// application's validation for a keyword of the tags (validator panics)
// refuses the object with an internal error.
func TestValidateFailsClosedOnAnUnknownKeyword(t *testing.T) {
	errs := table.Validate(nil, "t.Shop", &Shop{Spec: Spec{Code: "x"}})
	if len(errs) != 1 || errs[0].Type != field.ErrorTypeInternal || !strings.Contains(errs[0].Error(), "sku") {
		t.Fatalf("want one internal error naming sku, got %v", errs)
	}
}

func TestAccessErrors(t *testing.T) {
	got := errorStrings(admit.AccessErrors(&rbac.WriteError{Paths: []string{"spec.payerId"}}))
	if len(got) != 1 || !strings.HasPrefix(got[0], "spec.payerId: Forbidden: ") {
		t.Errorf("a write error: %q", got)
	}
	if got := errorStrings(admit.AccessErrors(errors.New("another tenant"))); len(got) != 1 || !strings.Contains(got[0], "another tenant") {
		t.Errorf("another error: %q", got)
	}
	if admit.AccessErrors(nil) != nil {
		t.Error("nil is no error")
	}
}

func ExampleTable_Path() {
	fmt.Println(table.Path("t.Shop", "Shop.Spec.Items[3].Name"))
	fmt.Println(table.Path("t.Shop", "Shop.Spec.Labels[a.b]"))
	// Output:
	// spec.items[3].name
	// spec.labels[a.b]
}
