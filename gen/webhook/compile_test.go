package webhook_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/gen/webhook"
	"github.com/modelgen/modelgen/model"

	"github.com/modelgen/modelgen/internal/testkit"
)

// partsTest runs in the scratch module beside the generated webhook: the
// application registers sku on its validator, and the webhook runs it.
const partsTest = `package parts

import (
	"context"
	"strings"
	"testing"

	"github.com/go-playground/validator/v10"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

func part(sku string) *Part { p := &Part{}; p.Name = "p"; p.Spec.SKU = sku; return p }

func TestTheApplicationsKeywordRejects(t *testing.T) {
	v := validator.New()
	v.RegisterValidation("sku", func(fl validator.FieldLevel) bool { return strings.HasPrefix(fl.Field().String(), "SKU-") })
	w := &PartWebhook{Validate: v}
	if _, err := w.ValidateCreate(context.Background(), part("SKU-1")); err != nil {
		t.Fatalf("a valid part was refused: %v", err)
	}
	_, err := w.ValidateCreate(context.Background(), part("bolt"))
	if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), "spec.sku: Invalid value: \"bolt\": fails the check sku") {
		t.Fatalf("want spec.sku refused by the application's sku, got %v", err)
	}
}

func TestWithoutTheApplicationsValidator(t *testing.T) {
	if err := (&PartWebhook{}).SetupWebhookWithManager(nil); err == nil || !strings.Contains(err.Error(), "Validate is nil") {
		t.Errorf("SetupWebhookWithManager with no validator: %v", err)
	}
	_, err := (&PartWebhook{}).ValidateCreate(context.Background(), part("SKU-1"))
	if err == nil || !strings.Contains(err.Error(), "Internal error") {
		t.Errorf("validator.New() without sku: want an internal error, got %v", err)
	}
}
`

// TestDeclaredKeywordRunsTheApplicationsValidator generates the webhook of
// a kind whose tags use a keyword the application declares
// (validatorKeywords), then compiles and runs it in a scratch module with
// the examples' requirements (controller-runtime, resolved offline from the
// module cache): the application's registered sku rejects an object at its
// JSON path, and without the application's validator the webhook refuses
// to be set up and refuses objects.
func TestDeclaredKeywordRunsTheApplicationsValidator(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command on a scratch module")
	}
	m, err := model.Load(model.Config{Patterns: []string{"./testdata/parts"}, ValidatorKeywords: func(string) []string { return []string{"sku"} }})
	if err != nil || m.Diags.HasErrors() {
		t.Fatal(err, m.Diags)
	}
	if len(m.Diags) > 0 {
		t.Errorf("a declared keyword gives diagnostics: %v", m.Diags)
	}
	out, diags := generate(t, m, gen.Config{})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	src := string(files(t, out)[webhook.FileName])
	if !strings.Contains(src, "no CRD schema can carry (sku)") {
		t.Errorf("the webhook does not list sku as runtime only:\n%s", src)
	}
	dir := t.TempDir()
	root := testkit.Root(t)
	mod := testkit.ReadFile(t, filepath.Join(root, "examples", "go.mod"))
	mod = strings.Replace(mod, "module github.com/modelgen/modelgen/examples", "module example.com/parts", 1)
	mod = strings.Replace(mod, "=> ../", "=> "+root, 1)
	testkit.WriteFile(t, filepath.Join(dir, "go.mod"), mod)
	testkit.WriteFile(t, filepath.Join(dir, "go.sum"), testkit.ReadFile(t, filepath.Join(root, "examples", "go.sum")))
	testkit.WriteFile(t, filepath.Join(dir, "types.go"), testkit.ReadFile(t, filepath.Join("testdata", "parts", "types.go")))
	testkit.WriteFile(t, filepath.Join(dir, webhook.FileName), src)
	testkit.WriteFile(t, filepath.Join(dir, "parts_test.go"), partsTest)
	cmd := exec.Command("go", "test", "-count=1", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOPROXY=off")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("the generated webhook: %v\n%s", err, b)
	}
}
