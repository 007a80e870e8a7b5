//go:build envtest

package crdgate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"

	"github.com/modelgen/modelgen/gate"
)

// objectCase is an objects case folder's case.yaml.
type objectCase struct {
	Note string `json:"note"`
	// KubeVersion, when set, is a Kubernetes the control plane is not:
	// the case is judged by the table test only.
	KubeVersion string `json:"kubeVersion"`
}

func objectCaseDirs(t *testing.T) []string {
	_, self, _, _ := runtime.Caller(0)
	dirs, err := filepath.Glob(filepath.Join(filepath.Dir(self), "..", "..", "..", "gate", "testdata", "crdobjects", "*"))
	if err != nil || len(dirs) < 20 {
		t.Fatalf("objects case folders: %v (%d)", err, len(dirs))
	}
	return dirs
}

// TestObjectVerdictsOnTheServer stores each case's objects under the base
// CRD, applies the revision, and does to every object what the gate's
// objects mode judges: a read through each served version, an unchanged
// and a label-only update through each, a create afresh through its own
// version. What the server did, as a verdict per object, must be the
// gate's.
func TestObjectVerdictsOnTheServer(t *testing.T) {
	judged := 0
	for _, dir := range objectCaseDirs(t) {
		var cf objectCase
		readYAML(t, filepath.Join(dir, "case.yaml"), &cf)
		if cf.KubeVersion != "" {
			continue
		}
		judged++
		t.Run(filepath.Base(dir), func(t *testing.T) {
			t.Parallel()
			objectsFile := objectsFileOf(t, dir)
			report, err := gate.RunCRD(t.Context(), gate.CRDOptions{Dir: dir, Base: "base.yaml", Revision: "revision.yaml", Objects: []string{filepath.Base(objectsFile)}})
			if err != nil {
				t.Fatal(err)
			}
			gateSays := map[string]gate.Level{}
			gateSaw := map[string][]string{}
			for _, f := range report.Objects {
				gateSays[f.Name] = max(gateSays[f.Name], f.Verdict)
				if !slices.Contains(gateSaw[f.Name], f.Rule) {
					gateSaw[f.Name] = append(gateSaw[f.Name], f.Rule)
				}
			}
			did := observeObjects(t, dir, readObjectsFile(t, objectsFile))
			for name, got := range did {
				if want := max(gateSays[name], gate.LevelInfo); want != got.level() {
					t.Errorf("%s: the gate says %v, the server did %v: %s\ngate: %+v", name, want, got.level(), got, report.Objects)
				}
				saw := slices.DeleteFunc(slices.Clone(gateSaw[name]), func(r string) bool { return r == gate.ObjectRuleReadInvalid })
				slices.Sort(saw)
				if rules := got.rules(); !slices.Equal(saw, rules) {
					t.Errorf("%s: the gate found %v, the server did %v: %s", name, saw, rules, got)
				}
			}
		})
	}
	if judged < 20 {
		t.Errorf("%d object cases proved on the server, want at least 20", judged)
	}
}

func objectsFileOf(t *testing.T, dir string) string {
	t.Helper()
	for _, name := range []string{"objects.yaml", "objects.json"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			return filepath.Join(dir, name)
		}
	}
	t.Fatalf("%s: no objects.yaml or objects.json", dir)
	return ""
}

// readObjectsFile reads a List or a stream of documents.
func readObjectsFile(t *testing.T, file string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for _, doc := range strings.Split(string(data), "\n---\n") {
		// as the dynamic client decodes: integers stay int64
		raw, err := yaml.YAMLToJSON([]byte(doc))
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		var obj map[string]any
		if err := utiljson.Unmarshal(raw, &obj); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if items, ok := obj["items"].([]any); ok {
			for _, it := range items {
				out = append(out, it.(map[string]any))
			}
			continue
		}
		if obj != nil {
			out = append(out, obj)
		}
	}
	return out
}

// objectOutcome is what the server did to one stored object.
type objectOutcome struct {
	lost           []string // read through a version: pruned, or unreadable
	defaulted      []string // read through a version: a value it was stored without
	updateRefused  []string
	labelRefused   []string
	createRefused  error
	ownUnavailable error
}

func (o objectOutcome) level() gate.Level {
	switch {
	case len(o.lost) > 0 || len(o.updateRefused) > 0 || len(o.labelRefused) > 0 || o.ownUnavailable != nil:
		return gate.LevelError
	case len(o.defaulted) > 0 || o.createRefused != nil:
		return gate.LevelWarning
	}
	return gate.LevelInfo
}

// rules are the gate's object rules for what the server did, sorted.
func (o objectOutcome) rules() []string {
	var out []string
	add := func(happened bool, rule string) {
		if happened {
			out = append(out, rule)
		}
	}
	add(len(o.lost) > 0, gate.ObjectRuleReadPrunes)
	add(len(o.defaulted) > 0, gate.ObjectRuleReadDefaulted)
	add(len(o.updateRefused) > 0, gate.ObjectRuleUpdateRefused)
	add(len(o.labelRefused) > 0, gate.ObjectRuleLabelUpdateRefused)
	add(o.createRefused != nil, gate.ObjectRuleCreateRefused)
	add(o.ownUnavailable != nil, gate.ObjectRuleVersionRemoved)
	slices.Sort(out)
	return out
}

func (o objectOutcome) String() string {
	return fmt.Sprintf("lost on read: %v; defaulted on read: %v; unchanged update refused: %v; label-only update refused: %v; create refused: %v; own version: %v",
		o.lost, o.defaulted, o.updateRefused, o.labelRefused, o.createRefused, o.ownUnavailable)
}

// observeObjects runs one objects case on the server.
func observeObjects(t *testing.T, dir string, objs []map[string]any) map[string]*objectOutcome {
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

	// store every object through the version it was read through, and
	// check it reads back as the case file has it (the file is what
	// kubectl get showed under the base)
	for _, o := range objs {
		version := versionOf(o)
		at := resource(&base, version)
		obj := &unstructured.Unstructured{Object: map[string]any{"apiVersion": o["apiVersion"], "kind": o["kind"],
			"metadata": map[string]any{"name": nameOf(o)}, "spec": o["spec"]}}
		var created *unstructured.Unstructured
		if err := retry(ctx, func() (err error) {
			created, err = client(&base, at).Create(ctx, obj, metav1.CreateOptions{})
			return err
		}); err != nil {
			t.Fatalf("storing %s under the base: %v", nameOf(o), err)
		}
		if status, ok := o["status"]; ok {
			created.Object["status"] = status
			if _, err := client(&base, at).UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
				t.Fatalf("storing the status of %s under the base: %v", nameOf(o), err)
			}
		}
		got, err := client(&base, at).Get(ctx, nameOf(o), metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got.Object["spec"], o["spec"]) || !reflect.DeepEqual(got.Object["status"], o["status"]) {
			t.Fatalf("the case file does not hold %s as the base stores it: %v %v, stored %v %v", nameOf(o), o["spec"], o["status"], got.Object["spec"], got.Object["status"])
		}
	}
	if err := applyRevision(t, &rev); err != nil {
		t.Fatalf("the server refuses the revision: %v", err)
	}

	out := map[string]*objectOutcome{}
	for _, o := range objs {
		out[nameOf(o)] = &objectOutcome{}
	}
	var served []string
	for _, v := range rev.Spec.Versions {
		if v.Served {
			served = append(served, v.Name)
		}
	}
	// reads first: an update writes back what it read
	for _, o := range objs {
		oc := out[nameOf(o)]
		if !slices.Contains(served, versionOf(o)) {
			_, err := client(&rev, resource(&rev, versionOf(o))).Get(ctx, nameOf(o), metav1.GetOptions{})
			if err == nil {
				t.Fatalf("%s reads through %s, which the revision does not serve", nameOf(o), versionOf(o))
			}
			oc.ownUnavailable = err
		}
		for _, v := range served {
			var got *unstructured.Unstructured
			err := retry(ctx, func() (err error) {
				got, err = client(&rev, resource(&rev, v)).Get(ctx, nameOf(o), metav1.GetOptions{})
				return err
			})
			if err != nil {
				oc.lost = append(oc.lost, fmt.Sprintf("%s: %v", v, err))
				continue
			}
			stored := map[string]any{"spec": o["spec"], "status": o["status"]}
			read := map[string]any{"spec": got.Object["spec"], "status": got.Object["status"]}
			for _, p := range missing(read, stored, "") {
				oc.lost = append(oc.lost, v+" "+p)
			}
			for _, p := range missing(stored, read, "") {
				oc.defaulted = append(oc.defaulted, v+" "+p)
			}
		}
	}
	for _, o := range objs {
		oc := out[nameOf(o)]
		for _, v := range served {
			c := client(&rev, resource(&rev, v))
			if got, err := c.Get(ctx, nameOf(o), metav1.GetOptions{}); err != nil {
				oc.updateRefused = append(oc.updateRefused, fmt.Sprintf("%s: %v", v, err))
			} else if _, err := c.Update(ctx, got, metav1.UpdateOptions{}); err != nil {
				oc.updateRefused = append(oc.updateRefused, fmt.Sprintf("%s: %v", v, err))
			}
			if got, err := c.Get(ctx, nameOf(o), metav1.GetOptions{}); err != nil {
				oc.labelRefused = append(oc.labelRefused, fmt.Sprintf("%s: %v", v, err))
			} else {
				labels := got.GetLabels()
				if labels == nil {
					labels = map[string]string{}
				}
				labels["gate.modelgen.dev/probe"] = "label-only-" + v
				got.SetLabels(labels)
				if _, err := c.Update(ctx, got, metav1.UpdateOptions{}); err != nil {
					oc.labelRefused = append(oc.labelRefused, fmt.Sprintf("%s: %v", v, err))
				}
			}
		}
		if slices.Contains(served, versionOf(o)) {
			again := &unstructured.Unstructured{Object: map[string]any{"apiVersion": o["apiVersion"], "kind": o["kind"],
				"metadata": map[string]any{"name": nameOf(o) + "-again"}, "spec": o["spec"]}}
			if status, ok := o["status"]; ok {
				again.Object["status"] = status
			}
			_, oc.createRefused = client(&rev, resource(&rev, versionOf(o))).Create(ctx, again, metav1.CreateOptions{})
		}
	}
	return out
}

// missing lists the paths of have that in lacks (nulls count as values).
func missing(in, have any, path string) []string {
	var out []string
	switch h := have.(type) {
	case map[string]any:
		m, _ := in.(map[string]any)
		for k, v := range h {
			if path == "" && v == nil {
				continue // no status stored, none read
			}
			iv, ok := m[k]
			if !ok {
				out = append(out, path+"."+k)
				continue
			}
			out = append(out, missing(iv, v, path+"."+k)...)
		}
	case []any:
		l, _ := in.([]any)
		for i, v := range h {
			if i < len(l) {
				out = append(out, missing(l[i], v, fmt.Sprintf("%s[%d]", path, i))...)
			}
		}
	}
	slices.Sort(out)
	return out
}

func nameOf(o map[string]any) string {
	meta, _ := o["metadata"].(map[string]any)
	name, _ := meta["name"].(string)
	return name
}

func versionOf(o map[string]any) string {
	api, _ := o["apiVersion"].(string)
	return api[strings.LastIndex(api, "/")+1:]
}
