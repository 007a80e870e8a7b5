//go:build envtest

// Package crdgate proves the CRD gate's verdicts on a real kube-apiserver:
// for every case folder of gate/testdata/crd it installs the base
// CRD, stores objects, applies the revision, then reads them back, updates
// them unchanged, updates another field (spec.other, in every case's
// schema), updates the tightened field and creates afresh, and checks that
// what the server did is what the gate said.
package crdgate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic"
	"sigs.k8s.io/yaml"

	"github.com/modelgen/modelgen/examples/e2e/internal/controlplane"
	"github.com/modelgen/modelgen/gate"
)

var (
	dyn  dynamic.Interface
	crds apiextclient.Interface
)

// TestMain starts one real kube-apiserver and etcd for every case.
func TestMain(m *testing.M) {
	env, cfg, err := controlplane.Start()
	if err != nil {
		fmt.Fprintln(os.Stderr, "starting the control plane:", err)
		os.Exit(1)
	}
	dyn = dynamic.NewForConfigOrDie(cfg)
	crds = apiextclient.NewForConfigOrDie(cfg)
	code := m.Run()
	if err := env.Stop(); err != nil {
		fmt.Fprintln(os.Stderr, "stopping the control plane:", err)
	}
	os.Exit(code)
}

// caseFile is a case folder's case.yaml.
type caseFile struct {
	Stored []map[string]any `json:"stored"`
	Touch  map[string]any   `json:"touch"`
	Fresh  map[string]any   `json:"fresh"`
	// Written is an object created after the revision through a served
	// version, then read back through it: what it loses was pruned on write.
	Written *struct {
		Version string         `json:"version"`
		Spec    map[string]any `json:"spec"`
	} `json:"written"`
	// Converted are the versions the revision's conversion webhook converts
	// (its generated round-trip tests prove them); this test serves no
	// webhook, so it reads stored objects through the others only.
	Converted []string `json:"converted"`
	// ClientBreaking says why the gate judges breaking a change the server
	// applies without complaint (clients, not stored objects, break).
	ClientBreaking string `json:"clientBreaking"`
}

// outcome is what the server did once the revision replaced the base.
type outcome struct {
	crdRefused       error
	readChanged      []string // stored data that reads back differently (pruned, defaulted) or not at all
	unchangedRefused error
	neighbourRefused error // an update of spec.other, beside the changed field
	touchRefused     error
	freshRefused     error
}

// level is the verdict the server's behaviour stands for: error when stored
// objects lost data, cannot be read, cannot be updated unchanged or with
// another field changed, or the CRD update itself is refused; warning when
// only changed values and creates are refused; info otherwise.
func (o outcome) level() gate.Level {
	switch {
	case o.crdRefused != nil || len(o.readChanged) > 0 || o.unchangedRefused != nil || o.neighbourRefused != nil:
		return gate.LevelError
	case o.touchRefused != nil || o.freshRefused != nil:
		return gate.LevelWarning
	}
	return gate.LevelInfo
}

func (o outcome) String() string {
	return fmt.Sprintf("CRD update refused: %v; read changed: %v; unchanged update refused: %v; update of another field refused: %v; tightened update refused: %v; create refused: %v",
		o.crdRefused, o.readChanged, o.unchangedRefused, o.neighbourRefused, o.touchRefused, o.freshRefused)
}

func caseDirs(t *testing.T) []string {
	_, self, _, _ := runtime.Caller(0)
	dirs, err := filepath.Glob(filepath.Join(filepath.Dir(self), "..", "..", "..", "gate", "testdata", "crd", "*"))
	if err != nil || len(dirs) < 30 {
		t.Fatalf("case folders: %v (%d)", err, len(dirs))
	}
	return dirs
}

func TestVerdictsOnTheServer(t *testing.T) {
	for _, dir := range caseDirs(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			t.Parallel()
			report, err := gate.RunCRD(t.Context(), gate.CRDOptions{Dir: dir, Base: "base.yaml", Revision: "revision.yaml"})
			if err != nil {
				t.Fatal(err)
			}
			gateLevel := gate.Level(0)
			for _, c := range report.Changes {
				gateLevel = max(gateLevel, c.Level)
			}
			var cf caseFile
			readYAML(t, filepath.Join(dir, "case.yaml"), &cf)
			got := observe(t, dir, cf)
			server := got.level()
			switch {
			case cf.ClientBreaking != "":
				if gateLevel != gate.LevelError || server == gate.LevelError {
					t.Errorf("a client-breaking case (%s): gate %v, server %v (%v)", cf.ClientBreaking, gateLevel, server, got)
				}
			case max(gateLevel, gate.LevelInfo) != server:
				t.Errorf("gate says %v, the server did %v: %v\ngate: %+v", gateLevel, server, got, report.Changes)
			}
		})
	}
}

func readYAML(t *testing.T, file string, into any) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.UnmarshalStrict(data, into); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
}

// observe runs one case on the server.
func observe(t *testing.T, dir string, cf caseFile) outcome {
	ctx := t.Context()
	var base, rev apiext.CustomResourceDefinition
	readYAML(t, filepath.Join(dir, "base.yaml"), &base)
	readYAML(t, filepath.Join(dir, "revision.yaml"), &rev)
	if _, err := crds.ApiextensionsV1().CustomResourceDefinitions().Create(ctx, &base, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = crds.ApiextensionsV1().CustomResourceDefinitions().Delete(context.Background(), base.Name, metav1.DeleteOptions{})
	})
	waitEstablished(t, base.Name)
	storedIn := resource(&base, storage(&base))
	var stored []*unstructured.Unstructured
	for i, spec := range cf.Stored {
		obj := object(&base, storedIn, fmt.Sprintf("s%d", i), spec)
		var created *unstructured.Unstructured
		err := retry(ctx, func() (err error) {
			created, err = client(&base, storedIn).Create(ctx, obj, metav1.CreateOptions{})
			return err
		})
		if err != nil {
			t.Fatalf("storing %v under the base: %v", spec, err)
		}
		stored = append(stored, created)
	}

	var o outcome
	if o.crdRefused = applyRevision(t, &rev); o.crdRefused != nil {
		return o
	}
	o.readChanged = readBack(t, &base, &rev, stored, cf.Converted)
	if w := cf.Written; w != nil {
		through := resource(&rev, w.Version)
		err := retry(ctx, func() error {
			_, err := client(&rev, through).Create(ctx, object(&rev, through, "written", w.Spec), metav1.CreateOptions{})
			return err
		})
		if err != nil {
			t.Fatalf("writing through %s: %v", w.Version, err)
		}
		got, err := client(&rev, through).Get(ctx, "written", metav1.GetOptions{})
		switch {
		case err != nil:
			o.readChanged = append(o.readChanged, fmt.Sprintf("written through %s: %v", w.Version, err))
		case !reflect.DeepEqual(got.Object["spec"], w.Spec):
			o.readChanged = append(o.readChanged, fmt.Sprintf("written through %s as %v, reads %v", w.Version, w.Spec, got.Object["spec"]))
		}
	}
	at := storedIn
	if !served(&rev, at.Version) {
		at = resource(&rev, storage(&rev))
	}
	for _, s := range stored {
		if err := updateSpec(ctx, &rev, at, s.GetName(), nil); err != nil && o.unchangedRefused == nil {
			o.unchangedRefused = err
		}
	}
	for _, s := range stored {
		if err := updateSpec(ctx, &rev, at, s.GetName(), map[string]any{"other": "changed"}); err != nil && o.neighbourRefused == nil {
			o.neighbourRefused = err
		}
	}
	if cf.Touch != nil && len(stored) > 0 {
		o.touchRefused = updateSpec(ctx, &rev, at, stored[0].GetName(), cf.Touch)
	}
	fresh := cf.Fresh
	if fresh == nil {
		fresh = cf.Stored[0]
	}
	_, o.freshRefused = client(&rev, at).Create(ctx, object(&rev, at, "fresh", fresh), metav1.CreateOptions{})
	return o
}

func waitEstablished(t *testing.T, name string) {
	err := wait.PollUntilContextTimeout(t.Context(), 50*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		crd, err := crds.ApiextensionsV1().CustomResourceDefinitions().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		for _, c := range crd.Status.Conditions {
			if c.Type == apiext.Established && c.Status == apiext.ConditionTrue {
				return true, nil
			}
		}
		return false, nil
	})
	if err != nil {
		t.Fatalf("CRD %s not established: %v", name, err)
	}
}

// applyRevision replaces the base CRD's spec with the revision's and waits
// until the server serves it: the revision carries, in memory only, a probe
// field at the root, which the server keeps only once the new schema is in
// use.
func applyRevision(t *testing.T, rev *apiext.CustomResourceDefinition) error {
	ctx := t.Context()
	current, err := crds.ApiextensionsV1().CustomResourceDefinitions().Get(ctx, rev.Name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	probed := rev.DeepCopy()
	for i := range probed.Spec.Versions {
		probed.Spec.Versions[i].Schema.OpenAPIV3Schema.Properties["probe"] = apiext.JSONSchemaProps{Type: "string"}
	}
	current.Spec = probed.Spec
	if _, err := crds.ApiextensionsV1().CustomResourceDefinitions().Update(ctx, current, metav1.UpdateOptions{}); err != nil {
		if apierrors.IsInvalid(err) {
			return err
		}
		t.Fatalf("updating the CRD: %v", err)
	}
	at := resource(rev, storage(rev))
	err = wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		obj := object(rev, at, "probe", map[string]any{})
		delete(obj.Object, "spec")
		obj.Object["probe"] = "kept"
		got, err := client(rev, at).Create(ctx, obj, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		if err != nil {
			return false, nil // the new version may not be served yet, or spec is required
		}
		return got.Object["probe"] == "kept", nil
	})
	if err != nil {
		t.Fatalf("the revision of %s never took effect: %v", rev.Name, err)
	}
	return nil
}

// readBack reads every stored object through every version both sides
// serve, and the revision's new versions, except the converted ones, and
// lists what differs from what was stored.
func readBack(t *testing.T, base, rev *apiext.CustomResourceDefinition, stored []*unstructured.Unstructured, converted []string) []string {
	var changed []string
	for _, v := range rev.Spec.Versions {
		if !v.Served || slices.Contains(converted, v.Name) {
			continue
		}
		at := resource(rev, v.Name)
		for _, s := range stored {
			got, err := client(rev, at).Get(t.Context(), s.GetName(), metav1.GetOptions{})
			if err != nil {
				changed = append(changed, fmt.Sprintf("%s %s: %v", v.Name, s.GetName(), err))
				continue
			}
			if !reflect.DeepEqual(got.Object["spec"], s.Object["spec"]) {
				changed = append(changed, fmt.Sprintf("%s %s: spec %v reads %v", v.Name, s.GetName(), s.Object["spec"], got.Object["spec"]))
			}
		}
	}
	for _, v := range base.Spec.Versions {
		if v.Served && !served(rev, v.Name) {
			_, err := client(rev, resource(rev, v.Name)).Get(t.Context(), stored[0].GetName(), metav1.GetOptions{})
			changed = append(changed, fmt.Sprintf("%s no longer served: %v", v.Name, err))
		}
	}
	return changed
}

// updateSpec reads an object and writes it back, with change merged into
// its spec (nil: unchanged).
func updateSpec(ctx context.Context, crd *apiext.CustomResourceDefinition, at schema.GroupVersionResource, name string, change map[string]any) error {
	obj, err := client(crd, at).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return err
	}
	spec, _ := obj.Object["spec"].(map[string]any)
	if spec == nil {
		spec = map[string]any{}
	}
	for k, v := range change {
		spec[k] = v
	}
	obj.Object["spec"] = spec
	_, err = client(crd, at).Update(ctx, obj, metav1.UpdateOptions{})
	return err
}

func storage(crd *apiext.CustomResourceDefinition) string {
	for _, v := range crd.Spec.Versions {
		if v.Storage {
			return v.Name
		}
	}
	return ""
}

func served(crd *apiext.CustomResourceDefinition, version string) bool {
	for _, v := range crd.Spec.Versions {
		if v.Name == version {
			return v.Served
		}
	}
	return false
}

func resource(crd *apiext.CustomResourceDefinition, version string) schema.GroupVersionResource {
	return schema.GroupVersionResource{Group: crd.Spec.Group, Version: version, Resource: crd.Spec.Names.Plural}
}

func client(crd *apiext.CustomResourceDefinition, at schema.GroupVersionResource) dynamic.ResourceInterface {
	if crd.Spec.Scope == apiext.ClusterScoped {
		return dyn.Resource(at)
	}
	return dyn.Resource(at).Namespace("default")
}

func object(crd *apiext.CustomResourceDefinition, at schema.GroupVersionResource, name string, spec map[string]any) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": at.Group + "/" + at.Version,
		"kind":       crd.Spec.Names.Kind,
		"metadata":   map[string]any{"name": name},
		"spec":       spec,
	}}
}

// retry repeats a request the server answers with 404 or 503 while it
// starts serving a new CRD.
func retry(ctx context.Context, f func() error) error {
	var last error
	err := wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, 30*time.Second, true, func(context.Context) (bool, error) {
		last = f()
		if apierrors.IsNotFound(last) || apierrors.IsServiceUnavailable(last) || errors.Is(last, context.DeadlineExceeded) {
			return false, nil
		}
		return true, last
	})
	if err != nil && last != nil && !strings.Contains(err.Error(), last.Error()) {
		return fmt.Errorf("%w (last: %v)", err, last)
	}
	return err
}
