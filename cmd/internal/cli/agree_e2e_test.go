package cli_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelgen/modelgen/cmd/internal/cli"
	agreegen "github.com/modelgen/modelgen/gen/agree"

	"github.com/modelgen/modelgen/internal/testkit"
)

const agreeScratchTypes = `// +groupName=scratch.example.com
// +kubebuilder:object:generate=true
package v1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Widget is a resource of the scratch module.
//
// +kubebuilder:object:root=true
type Widget struct {
	metav1.TypeMeta   ` + "`json:\",inline\"`" + `
	metav1.ObjectMeta ` + "`json:\"metadata,omitempty\"`" + `
	Spec WidgetSpec ` + "`json:\"spec\"`" + `
}

// WidgetSpec holds a little of everything.
type WidgetSpec struct {
	Name     string            ` + "`json:\"name\" validate:\"required,min=3,max=8\"`" + `
	Size     int32             ` + "`json:\"size,omitempty\" validate:\"omitempty,gte=1,lte=10\"`" + `
	Ratio    float64           ` + "`json:\"ratio,omitempty\" validate:\"omitempty,gt=0.5,lt=1.5\"`" + `
	Color    string            ` + "`json:\"color,omitempty\" validate:\"omitempty,oneof=red green\"`" + `
	Tags     []string          ` + "`json:\"tags,omitempty\" validate:\"omitempty,max=3,unique,dive,alpha\"`" + `
	Labels   map[string]string ` + "`json:\"labels,omitempty\" validate:\"omitempty,max=2,dive,keys,alpha,endkeys,max=4\"`" + `
	Password string            ` + "`json:\"password,omitempty\"`" + `
	Confirm  string            ` + "`json:\"confirm,omitempty\" validate:\"eqfield=Password\"`" + `
}

// WidgetList is a list of Widgets.
//
// +kubebuilder:object:root=true
type WidgetList struct {
	metav1.TypeMeta ` + "`json:\",inline\"`" + `
	metav1.ListMeta ` + "`json:\"metadata,omitempty\"`" + `
	Items []Widget  ` + "`json:\"items\"`" + `
}

// Order is a plain model.
//
// +modelgen:model
type Order struct {
	ID     string  ` + "`json:\"id\" validate:\"required,uuid4\"`" + `
	Amount float64 ` + "`json:\"amount\" validate:\"required,gte=0.01\"`" + `
	Email  string  ` + "`json:\"email,omitempty\" validate:\"omitempty,email\"`" + `
}
`

// TestGeneratedTestInScratchModule generates the agreement test into a
// fresh module that depends on modelgen, runs go test there, and checks
// that the test then catches a hand-edited CRD.
func TestGeneratedTestInScratchModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and tests a scratch module")
	}
	dir := t.TempDir()
	testkit.ModuleWithSum(t, dir, "example.com/scratch")
	testkit.WriteFile(t, filepath.Join(dir, "api", "v1", "types.go"), agreeScratchTypes)
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOWORK", "off")

	var stdout, stderr bytes.Buffer
	if code := cli.Run([]string{"generate", "--agree", "-C", dir, "./..."}, nil, &stdout, &stderr); code != cli.ExitOK {
		t.Fatalf("modelgen generate exited %d:\n%s%s", code, stdout.String(), stderr.String())
	}
	test := filepath.Join(dir, "api", "v1", agreegen.FileName)
	src, err := os.ReadFile(test)
	if err != nil {
		t.Fatalf("no agreement test generated: %v", err)
	}
	for _, want := range []string{"reflect.TypeOf(Order{})", "reflect.TypeOf(Widget{})", `"openapi.yaml"`, `"../../config/crd/bases/scratch.example.com_widgets.yaml"`} {
		if !strings.Contains(string(src), want) {
			t.Errorf("the generated test lacks %s:\n%s", want, src)
		}
	}

	out, err := agreeGoTest(dir)
	if err != nil {
		t.Fatalf("go test in the scratch module failed: %v\n%s", err, out)
	}
	if !strings.Contains(out, "0 unlisted") {
		t.Errorf("go test -v did not report the agreement summary:\n%s", out)
	}

	// A CRD edited by hand (maxLength 8 -> 9) no longer agrees.
	crd := filepath.Join(dir, "config", "crd", "bases", "scratch.example.com_widgets.yaml")
	data, err := os.ReadFile(crd)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(data), "maxLength: 8", "maxLength: 9", 1)
	if edited == string(data) {
		t.Fatalf("the CRD has no maxLength: 8:\n%s", data)
	}
	testkit.WriteFile(t, crd, edited)
	out, err = agreeGoTest(dir)
	if err == nil || !strings.Contains(out, "unlisted divergence") || !strings.Contains(out, "spec.name") {
		t.Fatalf("go test should fail on the edited CRD, naming spec.name (err %v):\n%s", err, out)
	}
}

func agreeGoTest(dir string) (string, error) {
	cmd := exec.Command("go", "test", "-count=1", "-v", "./...")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	return string(out), err
}
