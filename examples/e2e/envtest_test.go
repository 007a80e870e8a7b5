//go:build envtest

package e2e

import (
	"context"
	"fmt"
	"github.com/modelgen/modelgen/examples/e2e/internal/controlplane"
	"os"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
)

var (
	dyn        dynamic.Interface
	restConfig *rest.Config
	testEnv    *controlplane.Env
)

// TestMain starts a real kube-apiserver and etcd (KUBEBUILDER_ASSETS, see
// hack/controlplane.sh) with every generated CRD of the examples installed.
func TestMain(m *testing.M) {
	env, cfg, err := controlplane.Start()
	if err != nil {
		fmt.Fprintln(os.Stderr, "starting the control plane:", err)
		os.Exit(1)
	}
	restConfig, testEnv = cfg, env
	dyn = dynamic.NewForConfigOrDie(cfg)
	code := m.Run()
	if err := env.Stop(); err != nil {
		fmt.Fprintln(os.Stderr, "stopping the control plane:", err)
	}
	os.Exit(code)
}

var (
	samples     = schema.GroupVersionResource{Group: "e2e.modelgen.dev", Version: "v1", Resource: "samples"}
	paymentsGVR = schema.GroupVersionResource{Group: "payments.example.com", Version: "v1alpha1", Resource: "paymentorders"}
)

func validSample() map[string]any {
	return map[string]any{
		"name": "alpha", "choice": "light blue", "count": int64(5), "amount": 0.5, "accepted": true,
	}
}

func create(t *testing.T, gvr schema.GroupVersionResource, kind string, spec map[string]any) error {
	t.Helper()
	obj := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": gvr.Group + "/" + gvr.Version,
		"kind":       kind,
		"metadata":   map[string]any{"generateName": "t-", "namespace": "default"},
		"spec":       spec,
	}}
	_, err := dyn.Resource(gvr).Namespace("default").Create(context.Background(), obj, metav1.CreateOptions{})
	return err
}

// TestSampleKeywords applies one boundary value per keyword: the valid one
// is accepted, the invalid one rejected by the API server with a message
// naming the JSON field.
func TestSampleKeywords(t *testing.T) {
	if err := create(t, samples, "Sample", validSample()); err != nil {
		t.Fatalf("a valid Sample was rejected: %v", err)
	}
	cases := []struct {
		field     string
		good, bad any
		wantInMsg string // defaults to field
	}{
		{"name", "abc", "ab", ""},
		{"name", "ñandú", "ñandúñandú", ""},
		{"code", "abcd", "abc", ""},
		{"greater", "abc", "ab", ""},
		{"greater", "abcde", "abcdef", ""},
		{"exact", "yes", "no", ""},
		{"notNo", "yes", "no", ""},
		{"letters", "abc", "ab1", ""},
		{"alphaNum", "ab1", "ab-1", ""},
		{"numeric", "-1.5", "1.", ""},
		{"hex", "0xBEEF", "xyz", ""},
		{"color", "#abc", "abc", ""},
		{"phone", "+14155552671", "0123", ""},
		{"encoded", "aGk=", "aGk", ""},
		{"id", "3f1c7f8e-2b4d-4c1a-9e2f-7a6b5c4d3e2f", "3f1c7f8e-2b4d-1c1a-9e2f-7a6b5c4d3e2f", ""},
		{"digest", strings.Repeat("a", 64), strings.Repeat("a", 63), ""},
		{"text", "hello", "héllo", ""},
		{"version", "1.2.3", "1.2", ""},
		{"host", "example.com", "-bad.com", ""},
		{"email", "a@example.com", "not-an-email", ""},
		{"prefixed", "abxyz", "abxy", ""},
		{"contains", "amidb", "midbad", ""},
		{"choice", "red", "blue", ""},
		{"notChoice", "user", "root", ""},
		{"foldCase", "ALPHA", "gamma", ""},
		{"flag", "True", "yes", ""},
		{"ip", "10.0.0.1", "10.0.0.256", ""},
		{"network", "10.0.0.0/8", "10.0.0.0", ""},
		{"count", int64(10), int64(11), ""},
		{"count", int64(1), int64(0), ""},
		{"ratio", 1.4, 1.5, ""},
		{"amount", 0.01, int64(0), ""},
		{"amount", 0.01, 0.001, ""},
		{"level", int64(3), int64(4), ""},
		{"latitude", 90.0, 90.5, ""},
		{"accepted", true, false, ""},
		{"tags", []any{"ab", "cd"}, []any{"ab", "ab"}, ""},
		{"tags", []any{"ab"}, []any{"a"}, ""},
		{"tags", []any{"ab"}, []any{}, ""},
		{"labels", map[string]any{"ab": "x"}, map[string]any{"a1": "x"}, ""},
		{"labels", map[string]any{"ab": "wxyz"}, map[string]any{"ab": "vwxyz"}, ""},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s=%v", c.field, c.bad), func(t *testing.T) {
			good := validSample()
			good[c.field] = c.good
			if err := create(t, samples, "Sample", good); err != nil {
				t.Errorf("%s=%v rejected: %v", c.field, c.good, err)
			}
			bad := validSample()
			bad[c.field] = c.bad
			err := create(t, samples, "Sample", bad)
			want := c.wantInMsg
			if want == "" {
				want = c.field
			}
			if !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), want) {
				t.Errorf("%s=%v: want an Invalid error naming %q, got %v", c.field, c.bad, want, err)
			}
		})
	}
}

// TestSampleCrossField checks the CEL rules generated from cross-field tags.
func TestSampleCrossField(t *testing.T) {
	cases := []struct {
		name    string
		set     map[string]any
		wantErr string
	}{
		{"eqfield holds", map[string]any{"password": "pw", "confirm": "pw"}, ""},
		{"eqfield fails", map[string]any{"password": "pw", "confirm": "px"}, "confirm"},
		{"eqfield missing is the zero value", map[string]any{"password": "pw"}, "confirm"},
		{"gtefield holds", map[string]any{"min": int64(2), "max": int64(2)}, ""},
		{"gtefield fails", map[string]any{"min": int64(3), "max": int64(2)}, "max"},
		{"required_if fires", map[string]any{"mode": "manual"}, "manual"},
		{"required_if met", map[string]any{"mode": "manual", "manual": "x"}, ""},
		{"required_if idle", map[string]any{"mode": "auto"}, ""},
		{"excluded_without fires", map[string]any{"backup": "b"}, "backup"},
		{"excluded_without idle", map[string]any{"backup": "b", "primary": "p"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			spec := validSample()
			for k, v := range c.set {
				spec[k] = v
			}
			err := create(t, samples, "Sample", spec)
			switch {
			case c.wantErr == "" && err != nil:
				t.Errorf("rejected: %v", err)
			case c.wantErr != "" && (!apierrors.IsInvalid(err) || !strings.Contains(err.Error(), c.wantErr)):
				t.Errorf("want an Invalid error naming %q, got %v", c.wantErr, err)
			}
		})
	}
}
