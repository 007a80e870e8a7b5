//go:build envtest

package agree_test

import (
	"context"
	"fmt"
	"github.com/modelgen/modelgen/examples/e2e/internal/controlplane"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/modelgen/modelgen/agree"
	v1 "github.com/modelgen/modelgen/examples/e2e/api/v1"

	"github.com/modelgen/modelgen/internal/testkit"
)

var (
	client rest.Interface
	suite  *agree.Harness
)

// TestMain starts a real kube-apiserver with the examples' generated CRDs
// (read from disk, as users apply them) and the CRDs of modelgen's own
// agreement suite (built in memory).
func TestMain(m *testing.M) {
	var err error
	if suite, err = agree.Suite(); err != nil {
		fmt.Fprintln(os.Stderr, "loading the agreement suite:", err)
		os.Exit(1)
	}
	env, cfg, err := controlplane.Start(suite.CRDs()...)
	if err != nil {
		fmt.Fprintln(os.Stderr, "starting the control plane:", err)
		os.Exit(1)
	}
	client = kubernetes.NewForConfigOrDie(cfg).CoreV1().RESTClient()
	code := m.Run()
	if err := env.Stop(); err != nil {
		fmt.Fprintln(os.Stderr, "stopping the control plane:", err)
	}
	os.Exit(code)
}

// serverAccepts sends a document as a dry-run create, byte for byte.
func serverAccepts(t *testing.T, c agree.Case) bool {
	err := client.Post().AbsPath(c.Path).Param("dryRun", "All").
		SetHeader("Content-Type", "application/json").Body(c.Doc).Do(context.Background()).Error()
	switch {
	case err == nil:
		return true
	case apierrors.IsInvalid(err) || apierrors.IsBadRequest(err):
		return false
	}
	t.Fatalf("%s: unexpected answer: %v", c.Doc, err)
	return false
}

// crossCheck judges cases in process and on the server, in parallel.
func crossCheck(t *testing.T, h *agree.Harness, cases []agree.Case) {
	t.Helper()
	var mu sync.Mutex
	var wg sync.WaitGroup
	work := make(chan agree.Case)
	mismatches := 0
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range work {
				j := h.Judge(c)
				if got := serverAccepts(t, c); got != j.CRD.Accept {
					mu.Lock()
					mismatches++
					if mismatches <= 20 {
						t.Errorf("the API server says accept=%v, the harness in process says %s\n%s %s probe %q\n\t%s",
							got, j.CRD, c.Type, c.Field, c.Probe, c.Doc)
					}
					mu.Unlock()
				}
			}
		}()
	}
	for _, c := range cases {
		work <- c
	}
	close(work)
	wg.Wait()
	t.Logf("%d documents sent to the API server, %d verdicts differ from the harness", len(cases), mismatches)
}

// TestSampleCrossCheck sends every boundary document of the e2e Sample
// (generated files read from disk) to the server.
func TestSampleCrossCheck(t *testing.T) {
	h, err := agree.New(agree.Config{
		Dir:     filepath.Join("..", "api", "v1"),
		Types:   []reflect.Type{reflect.TypeOf(v1.Sample{})},
		OpenAPI: "openapi.yaml",
		CRDs:    []string{"../../../config/crd/bases/e2e.modelgen.dev_samples.yaml"},
	})
	if err != nil {
		t.Fatal(err)
	}
	crossCheck(t, h, h.Cases())
	if want := cited(t)[0]; len(h.Cases()) != want {
		t.Errorf("%d documents of the Sample sent; docs/agreement.md cites %d", len(h.Cases()), want)
	}
}

// cited is what docs/agreement.md says this package sends: the Sample's
// documents, and the suite's.
func cited(t *testing.T) []int {
	return testkit.Cited(t, filepath.Join(testkit.Root(t), "docs", "agreement.md"),
		`\(the\s+Sample's\s+([\d,]+)\s+documents\s+and\s+([\d,]+)\s+of\s+the\s+suite's,\s+0\s+differences`)
}

// TestSuiteCrossCheck sends a sample of the agreement suite's documents:
// every one whose in-process CRD verdict differs from validator's (each is
// a claim the README makes), and every 25th of the rest.
func TestSuiteCrossCheck(t *testing.T) {
	var picked []agree.Case
	for i, c := range suite.Cases() {
		j := suite.Judge(c)
		if j.CRD.Accept != j.Validator.Accept || i%25 == 0 {
			picked = append(picked, c)
		}
	}
	crossCheck(t, suite, picked)
	if want := cited(t)[1]; len(picked) != want {
		t.Errorf("%d documents of the suite sent; docs/agreement.md cites %d", len(picked), want)
	}
}
