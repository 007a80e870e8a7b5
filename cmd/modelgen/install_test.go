package main

import (
	"bytes"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelgen/modelgen/internal/testkit"
)

// The installation test does what the README's Installation section tells a
// new user to do, in a fresh module that depends on this checkout through a
// replace directive: add modelgen as a Go tool in one line, generate with
// go generate, build and test, and check. It then drops agree and a state
// tag, the change that used to stop go generate halfway, and checks that
// the runs settle. It needs the go command and the module cache the root
// module's tests already filled (it runs with GOPROXY=off).

const shopTypes = `// +groupName=payments.example.com
// +kubebuilder:object:generate=true
package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

//go:generate go tool modelgen generate .

// PaymentOrder is a request to move money.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
type PaymentOrder struct {
	metav1.TypeMeta   ` + "`json:\",inline\"`" + `
	metav1.ObjectMeta ` + "`json:\"metadata,omitempty\"`" + `
	Spec              PaymentOrderSpec   ` + "`json:\"spec\"`" + `
	Status            PaymentOrderStatus ` + "`json:\"status,omitempty\"`" + `
}

// PaymentOrderList is a list of payment orders.
// +kubebuilder:object:root=true
type PaymentOrderList struct {
	metav1.TypeMeta ` + "`json:\",inline\"`" + `
	metav1.ListMeta ` + "`json:\"metadata,omitempty\"`" + `
	Items           []PaymentOrder ` + "`json:\"items\"`" + `
}

type PaymentOrderSpec struct {
	Amount   float64 ` + "`json:\"amount\" validate:\"required,gte=0.01\"`" + `
	Currency string  ` + "`json:\"currency\" validate:\"required,len=3,alpha\"`" + `
}

type PaymentOrderStatus struct {
	Phase Phase ` + "`json:\"phase,omitempty\" state:\"initial=Submitted;Submitted->Authorized:Authorize\"`" + `
}

// Phase is where a payment is.
type Phase string

const (
	Submitted  Phase = "Submitted"
	Authorized Phase = "Authorized"
)
`

func TestInstallAsGoToolAndSettle(t *testing.T) {
	if testing.Short() {
		t.Skip("builds modelgen in a fresh module (-short)")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not available: cannot test the installation")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if formatted, err := format.Source([]byte(shopTypes)); err != nil || !bytes.Equal(formatted, []byte(shopTypes)) {
		t.Errorf("the quick start is not gofmt'd (a user pastes it as it is): %v\n%s", err, formatted)
	}
	if !bytes.Contains(readme, []byte(shopTypes)) {
		t.Error("the README's quick start is not the package this test generates, builds and tests")
	}
	for _, line := range []string{
		"go get -tool github.com/modelgen/modelgen/cmd/modelgen",
		"//go:generate go tool modelgen generate .",
		"go tool modelgen generate --check ./...",
	} {
		if !bytes.Contains(readme, []byte(line)) {
			t.Errorf("the README's installation section lost %q, which this test runs", line)
		}
	}

	dir := t.TempDir()
	pkg := filepath.Join(dir, "api", "v1alpha1")
	testkit.ModuleWithSum(t, dir, "example.com/shop")
	testkit.WriteFile(t, filepath.Join(pkg, "types.go"), shopTypes)

	env := append(os.Environ(), "GOPROXY=off", "GOWORK=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local")
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(goCmd, args...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}

	// 1. one line installs it, as a tool of the module
	run("get", "-tool", "github.com/modelgen/modelgen/cmd/modelgen")
	if mod, _ := os.ReadFile(filepath.Join(dir, "go.mod")); !strings.Contains(string(mod), "tool github.com/modelgen/modelgen/cmd/modelgen") {
		t.Fatalf("go get -tool added no tool directive:\n%s", mod)
	}
	// 2. go generate runs it and prints what the README shows; with agree
	// on, the output builds, its tests (the agreement test among them)
	// pass, and --check finds it current
	first := run("generate", "./...")
	if summary := summaryLine(first); summary == "" || !bytes.Contains(readme, []byte("$ go generate ./...\n"+summary+"\n")) {
		t.Errorf("the README's quick start does not show what go generate printed:\n$ go generate ./...\n%s", summary)
	}
	testkit.WriteFile(t, filepath.Join(pkg, "modelgen.yaml"), "agree: true\n")
	run("generate", "./...")
	for _, f := range []string{"zz_generated.deepcopy.go", "zz_generated.statemachine.go", "zz_generated.modelgen_agree_test.go", "openapi.yaml", filepath.Join("docs", "PaymentOrderStatus-statemachine.md")} {
		if _, err := os.Stat(filepath.Join(pkg, f)); err != nil {
			t.Errorf("go generate did not write %s: %v", f, err)
		}
	}
	run("vet", "./...")
	run("test", "./...")
	run("tool", "modelgen", "generate", "--check", "./...")

	// 3. dropping agree and the state tag never stops go generate halfway,
	// and the build is right after the first run
	testkit.WriteFile(t, filepath.Join(pkg, "modelgen.yaml"), "agree: false\n")
	testkit.Edit(t, filepath.Join(pkg, "types.go"), ` state:"initial=Submitted;Submitted->Authorized:Authorize"`, "")
	run("generate", "./...")
	run("vet", "./...")
	if _, err := os.Stat(filepath.Join(pkg, "docs", "PaymentOrderStatus-statemachine.md")); !os.IsNotExist(err) {
		t.Errorf("the stale diagram is still there: %v", err)
	}
	// 4. the next run removes the files go generate still listed; the one
	// after it changes nothing
	run("generate", "./...")
	for _, f := range []string{"zz_generated.statemachine.go", "zz_generated.modelgen_agree_test.go"} {
		if _, err := os.Stat(filepath.Join(pkg, f)); !os.IsNotExist(err) {
			t.Errorf("%s is still there after the second run: %v", f, err)
		}
	}
	run("tool", "modelgen", "generate", "--check", "./...")
	before := testkit.Snapshot(t, dir)
	if out := run("generate", "./..."); !strings.Contains(out, " 0 files written") || !strings.Contains(out, " 0 removed") {
		t.Errorf("the third run changed something:\n%s", out)
	}
	testkit.SameTree(t, "the third run", testkit.Snapshot(t, dir), before)
	run("vet", "./...")
}

// summaryLine is the line a run ends with (types, fields, constraints,
// warnings and files), which the README shows; the progress lines before
// it carry timings and appear only on a slow run.
func summaryLine(out string) string {
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "modelgen: ") && strings.Contains(line, " files written") {
			return line
		}
	}
	return ""
}
