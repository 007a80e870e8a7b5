package gate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/yaml"

	"github.com/modelgen/modelgen/internal/testkit"
)

// objectCaseArgs are the gate's arguments for an objects case folder.
func objectCaseArgs(t *testing.T, dir string, extra ...string) []string {
	t.Helper()
	objects := "objects.yaml"
	if _, err := os.Stat(filepath.Join(dir, objects)); err != nil {
		objects = "objects.json"
	}
	args := []string{"-C", dir, "--crd-base", "base.yaml", "--crd-revision", "revision.yaml", "--crd-objects", objects}
	data, err := os.ReadFile(filepath.Join(dir, "case.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var cf struct {
		Note        string `json:"note"`
		KubeVersion string `json:"kubeVersion"`
	}
	if err := yaml.UnmarshalStrict(data, &cf); err != nil {
		t.Fatal(err)
	}
	if cf.KubeVersion != "" {
		args = append(args, "--kube-version", cf.KubeVersion)
	}
	return append(args, extra...)
}

// runObjects runs the gate on an objects case folder and returns the JSON
// report and the exit code.
func runObjects(t *testing.T, dir string, extra ...string) (*CRDReport, int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Command(objectCaseArgs(t, dir, append([]string{"--format", "json"}, extra...)...), &out, &errOut)
	if code == ExitError {
		t.Fatalf("exit 2: %s", errOut.String())
	}
	var r CRDReport
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	return &r, code
}

// TestCRDObjectVerdicts is the objects mode's table: per case folder of
// testdata/crdobjects (a base, a revision, the objects the base stored),
// the findings of each object as "verdict rule path". An object not listed
// has no finding. The same folders are proved on a real kube-apiserver
// (examples/e2e/crdgate, TestObjectVerdictsOnTheServer).
func TestCRDObjectVerdicts(t *testing.T) {
	cases := map[string]map[string][]string{
		// error: a read loses data
		"field-removed":                 {"s0": {"error object-read-prunes .spec.b"}},
		"additional-properties-removed": {"s0": {"error object-read-prunes .spec.m.k"}},
		"preserve-unknown-removed":      {"s0": {"error object-read-prunes .spec.cfg.k"}},
		"nullable-removed":              {"s0": {"error object-read-prunes .spec.a"}},
		"conversion-none-differ":        {"s0": {"error object-read-prunes .spec.b"}},
		"version-removed":               {"s0": {"error object-version-removed "}},
		// error: an unchanged or label-only update is refused
		"cel-transition-rule-added": {"s0": {"error object-update-refused .spec", "error object-label-update-refused .spec"}},
		"cel-root-rule-added": {"s0": {"error object-update-refused ", "error object-label-update-refused ",
			"warning object-create-refused "}},
		"minimum-tightened-1.29": {"s0": {"error object-update-refused .spec.count", "error object-label-update-refused .spec.count",
			"warning object-create-refused .spec.count"}},
		// warning: a read shows a default the object was stored without
		"default-added":               {"s0": {"warning object-read-defaulted .spec.mode"}},
		"required-added-with-default": {"s0": {"warning object-read-defaulted .spec.b"}},
		// warning: the object could not be created again (ratcheted on update)
		"minimum-tightened":      {"s0": {"warning object-create-refused .spec.count"}},
		"max-length-tightened":   {"s0": {"warning object-create-refused .spec.a"}},
		"pattern-added":          {"s0": {"warning object-create-refused .spec.a"}},
		"enum-value-removed":     {"s0": {"warning object-create-refused .spec.tier"}},
		"cel-rule-added":         {"s0": {"warning object-create-refused .spec"}},
		"cel-message-expression": {"s0": {"warning object-create-refused .spec"}},
		"list-type-set-added":    {"s0": {"warning object-create-refused .spec.tags[1]"}},
		"list-type-map-added":    {"s0": {"warning object-create-refused .spec.ports[1]"}},
		"list-map-keys-narrowed": {"s0": {"warning object-create-refused .spec.ports[1]"}},
		"required-added":         {"s0": {"warning object-create-refused .spec.b"}},
		"type-changed":           {"s0": {"warning object-create-refused .spec.count"}},
		// info: a read through another version holds a value it refuses
		"conversion-none-tighter-version": {"s0": {"info object-read-invalid .spec.a"}},
		// no finding
		"conversion-none-default": {},
		"status-tightened":        {},
		"clean":                   {},
	}
	dirs, _ := filepath.Glob(filepath.Join("testdata", "crdobjects", "*"))
	if len(dirs) != len(cases) {
		t.Errorf("%d case folders, %d cases in the table", len(dirs), len(cases))
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			want, ok := cases[filepath.Base(dir)]
			if !ok {
				t.Fatal("not in the table")
			}
			r, code := runObjects(t, dir)
			got := map[string][]string{}
			for _, f := range r.Objects {
				got[f.Name] = append(got[f.Name], fmt.Sprintf("%s %s %s", f.Verdict, f.Rule, f.Path))
			}
			for name, list := range want {
				if !slices.Equal(got[name], list) {
					t.Errorf("%s: got %q, want %q", name, got[name], list)
				}
			}
			for name, list := range got {
				if _, ok := want[name]; !ok {
					t.Errorf("%s: unexpected findings %q", name, list)
				}
			}
			if (code == ExitViolation) != (r.Verdict.Errors > 0 || r.Verdict.ObjectErrors > 0) {
				t.Errorf("exit %d, verdict %+v", code, r.Verdict)
			}
		})
	}
}

// TestCRDObjectExit: exit 1 when an object has an error, even when every
// CRD change is allowed; 0 when objects only warn.
func TestCRDObjectExit(t *testing.T) {
	dir := t.TempDir()
	crd := func(maximum string) string {
		return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.x.io}
spec:
  group: x.io
  names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              n: {type: integer` + maximum + `}
`
	}
	write(t, filepath.Join(dir, "base.yaml"), crd(""))
	write(t, filepath.Join(dir, "revision.yaml"), crd(", maximum: 5"))
	write(t, filepath.Join(dir, "objects.yaml"), "apiVersion: x.io/v1\nkind: Widget\nmetadata: {name: a, namespace: d}\nspec: {n: 9}\n")
	args := []string{"-C", dir, "--crd-base", "base.yaml", "--crd-revision", "revision.yaml", "--crd-objects", "objects.yaml"}
	var out, errOut bytes.Buffer
	if code := Command(args, &out, &errOut); code != ExitPass {
		t.Errorf("ratcheted: exit %d, want 0: %s%s", code, out.String(), errOut.String())
	}
	out.Reset()
	if code := Command(append(args, "--kube-version", "1.29"), &out, &errOut); code != ExitViolation || !strings.Contains(out.String(), ObjectRuleUpdateRefused) {
		t.Errorf("not ratcheted: exit %d, want 1: %s%s", code, out.String(), errOut.String())
	}
}

// TestCRDObjectCasesText keeps the text report of every objects case
// (grouped by rule, with counts) in want.txt; -update rewrites them.
func TestCRDObjectCasesText(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join("testdata", "crdobjects", "*"))
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			var out, errOut bytes.Buffer
			if code := Command(objectCaseArgs(t, dir), &out, &errOut); code == ExitError {
				t.Fatalf("exit 2: %s", errOut.String())
			}
			testkit.Golden(t, filepath.Join(dir, "want.txt"), out.String())
		})
	}
}

// storedValues are the string and number values of an object, metadata's
// name and namespace, apiVersion and kind aside.
func storedValues(obj map[string]any) []string {
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for _, c := range v {
				walk(c)
			}
		case []any:
			for _, c := range v {
				walk(c)
			}
		case string:
			out = append(out, v)
		case float64, int64:
			out = append(out, fmt.Sprint(v))
		}
	}
	for k, v := range obj {
		switch k {
		case "apiVersion", "kind":
		case "metadata":
			for mk, mv := range v.(map[string]any) {
				if mk != "name" && mk != "namespace" {
					walk(mv)
				}
			}
		default:
			walk(v)
		}
	}
	return out
}

// TestCRDObjectsNeverPrintValues: no message of any case quotes a stored
// value (of three characters or more: shorter ones are words of the
// messages) in any format, unless --show-values.
func TestCRDObjectsNeverPrintValues(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join("testdata", "crdobjects", "*"))
	shown := 0
	for _, dir := range dirs {
		objs, err := readObjects([]string{objectCaseArgs(t, dir)[7]}, dir, nil, DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		values := map[string][]string{} // per object: its own values
		for _, o := range objs {
			name := o.obj["metadata"].(map[string]any)["name"].(string)
			for _, v := range storedValues(o.obj) {
				if len(v) >= 3 {
					values[name] = append(values[name], v)
				}
			}
		}
		for _, format := range Formats {
			var out, errOut bytes.Buffer
			Command(objectCaseArgs(t, dir, "--format", format), &out, &errOut)
			var r CRDReport
			_ = json.Unmarshal(out.Bytes(), &r)
			for _, f := range r.Objects {
				for _, v := range values[f.Name] {
					if strings.Contains(f.Message, v) || strings.Contains(f.Path, v) {
						t.Errorf("%s: %s finding quotes stored value %q: %s", filepath.Base(dir), format, v, f.Message)
					}
				}
			}
			if format == FormatJSON {
				continue
			}
			for line := range strings.SplitSeq(out.String(), "\n") {
				for name, vs := range values {
					if !strings.Contains(line, "/"+name+" ") {
						continue
					}
					for _, v := range vs {
						if strings.Contains(line, v) {
							t.Errorf("%s: %s output quotes stored value %q: %s", filepath.Base(dir), format, v, line)
						}
					}
				}
			}
		}
		r, _ := runObjects(t, dir, "--show-values")
		for _, f := range r.Objects {
			for _, v := range values[f.Name] {
				if strings.Contains(f.Message, v) {
					shown++
				}
			}
		}
	}
	if shown == 0 {
		t.Error("--show-values quotes no stored value at all")
	}
}

const widgetCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.x.io}
spec:
  group: x.io
  names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              a: {type: string}
`

// TestCRDObjectsReader reads objects in every form kubectl writes them.
func TestCRDObjectsReader(t *testing.T) {
	dir := t.TempDir()
	item := func(name string) string {
		return `{"apiVersion": "x.io/v1", "kind": "Widget", "metadata": {"name": "` + name + `", "namespace": "d"}, "spec": {"a": "v"}}`
	}
	write(t, filepath.Join(dir, "list.json"), `{"apiVersion": "v1", "kind": "List", "items": [`+item("j1")+`, `+item("j2")+`]}`)
	write(t, filepath.Join(dir, "docs.yaml"), "---\n"+item("y1")+"\n---\n---\n"+item("y2")+"\n")
	write(t, filepath.Join(dir, "typed.yaml"), "apiVersion: x.io/v1\nkind: WidgetList\nitems:\n- metadata: {name: t1, namespace: d}\n")
	write(t, filepath.Join(dir, "backup", "d", "widgets", "b1.yaml"), item("b1"))
	write(t, filepath.Join(dir, "backup", "README.md"), "not read")
	names := func(objs []storedObject) []string {
		var out []string
		for _, o := range objs {
			out = append(out, o.obj["metadata"].(map[string]any)["name"].(string)+":"+o.obj["kind"].(string))
		}
		return out
	}
	objs, err := readObjects([]string{"list.json", "docs.yaml", "typed.yaml", "backup", "-"}, dir, strings.NewReader(item("stdin")), DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"j1:Widget", "j2:Widget", "y1:Widget", "y2:Widget", "t1:Widget", "b1:Widget", "stdin:Widget"}
	if got := names(objs); !slices.Equal(got, want) {
		t.Errorf("read %v, want %v", got, want)
	}
	for _, bad := range []struct{ name, text, want string }{
		{"scalar.yaml", "just text", "not a Kubernetes object"},
		{"nokind.yaml", "apiVersion: v1\nmetadata: {name: a}", "want apiVersion and kind"},
		{"item.yaml", "apiVersion: v1\nkind: List\nitems: [3]", "items[0] is not an object"},
		{"broken.yaml", "a: [", "not readable YAML"},
		{"dup.yaml", "apiVersion: v1\nkind: A\nkind: B", "kind"},
	} {
		write(t, filepath.Join(dir, bad.name), bad.text)
		if _, err := readObjects([]string{bad.name}, dir, nil, DefaultLimits()); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s: %v, want %q", bad.name, err, bad.want)
		}
	}
	if _, err := readObjects([]string{"-", "-"}, dir, strings.NewReader(""), DefaultLimits()); err == nil {
		t.Error("stdin read twice")
	}
}

// TestCRDObjectsBounds: objects beyond a bound end in seconds with exit 2.
func TestCRDObjectsBounds(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "crd.yaml"), widgetCRD)
	var big bytes.Buffer
	big.WriteString(`{"apiVersion": "v1", "kind": "List", "items": [`)
	for i := 0; big.Len() < 50<<20; i++ {
		fmt.Fprintf(&big, `{"apiVersion": "x.io/v1", "kind": "Widget", "metadata": {"name": "w%d", "namespace": "d"}, "spec": {"a": "%s"}},`, i, strings.Repeat("v", 200))
	}
	big.WriteString(`{}]}`)
	deep := `{"apiVersion": "x.io/v1", "kind": "Widget", "metadata": {"name": "deep"}, "spec": {"a": ` + strings.Repeat(`{"a": `, 300) + `1` + strings.Repeat(`}`, 300) + `}}`
	deeper := `{"apiVersion": "x.io/v1", "kind": "Widget", "spec": ` + strings.Repeat(`[`, 200_000) + strings.Repeat(`]`, 200_000) + `}`
	bomb := "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
	for i := 0; i < 8; i++ {
		bomb += fmt.Sprintf("%c: &%c [*%c, *%c, *%c, *%c, *%c, *%c, *%c, *%c, *%c, *%c]\n", 'b'+i, 'b'+i, 'a'+i, 'a'+i, 'a'+i, 'a'+i, 'a'+i, 'a'+i, 'a'+i, 'a'+i, 'a'+i, 'a'+i)
	}
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"big.json", big.Bytes(), "max-size"},
		{"deep.json", []byte(deep), "max-schema-depth"},
		{"deeper.json", []byte(deeper), "not readable"},
		{"bomb.yaml", []byte(bomb), "max-yaml-alias"},
	} {
		t.Run(c.name, func(t *testing.T) {
			write(t, filepath.Join(dir, c.name), string(c.data))
			for _, from := range []string{"file", "stdin"} {
				args := []string{"-C", dir, "--crd-base", "crd.yaml", "--crd-revision", "crd.yaml", "--crd-objects", c.name}
				var stdin *bytes.Reader
				if from == "stdin" {
					args[len(args)-1], stdin = "-", bytes.NewReader(c.data)
				} else {
					stdin = bytes.NewReader(nil)
				}
				start := time.Now()
				var out, errOut bytes.Buffer
				code := CommandIO(args, stdin, &out, &errOut)
				if took := time.Since(start); took > 10*time.Second {
					t.Errorf("%s: took %v", from, took)
				}
				if code != ExitError || !strings.Contains(errOut.String(), c.want) {
					t.Errorf("%s: exit %d, want 2 with %q: %s", from, code, c.want, errOut.String())
				}
			}
		})
	}
	t.Run("objects", func(t *testing.T) {
		defer func(n int) { maxObjects = n }(maxObjects)
		maxObjects = 2
		write(t, filepath.Join(dir, "three.yaml"), "apiVersion: v1\nkind: List\nitems: [{apiVersion: x.io/v1, kind: Widget}, {apiVersion: x.io/v1, kind: Widget}, {apiVersion: x.io/v1, kind: Widget}]\n")
		var out, errOut bytes.Buffer
		if code := Command([]string{"-C", dir, "--crd-base", "crd.yaml", "--crd-revision", "crd.yaml", "--crd-objects", "three.yaml"}, &out, &errOut); code != ExitError || !strings.Contains(errOut.String(), "more than 2 objects") {
			t.Errorf("exit %d: %s", code, errOut.String())
		}
	})
}

func write(t *testing.T, file, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCRDObjectDocListsEveryRule keeps docs/gate-crd.md's table of object
// rules in step with objectRules (-update rewrites it).
func TestCRDObjectDocListsEveryRule(t *testing.T) {
	path := filepath.Join("..", "docs", "gate-crd.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	const header = "| object rule | verdict | what the API server does |\n|---|---|---|\n"
	start := strings.Index(doc, header)
	if start < 0 {
		t.Fatalf("docs/gate-crd.md has no object rule table (%q)", header)
	}
	start += len(header)
	end := start + strings.Index(doc[start:], "\n\n") + 1
	var table strings.Builder
	for _, r := range ObjectRules() {
		fmt.Fprintf(&table, "| `%s` | %s | %s |\n", r.ID, r.Level, strings.ReplaceAll(r.Reason, "|", "\\|"))
	}
	testkit.Golden(t, path, doc[:start]+table.String()+doc[end:])
}

// TestObjectRuleTable: unique ids, apart from the CRD rules', each with a
// reason and a format.
func TestObjectRuleTable(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range ObjectRules() {
		if seen[r.ID] || crdRuleByID[r.ID].ID != "" || !strings.HasPrefix(r.ID, "object-") || r.Reason == "" || r.Format == "" || r.Ratcheted {
			t.Errorf("%s: duplicate, unprefixed, ratcheted or without reason or format", r.ID)
		}
		seen[r.ID] = true
	}
}

// TestCRDObjectsPaymentsExample runs docs/gate-crd.md's worked example on
// the payments operator's CRD and checks the report the doc shows.
func TestCRDObjectsPaymentsExample(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "gate-crd.md"))
	if err != nil {
		t.Fatal(err)
	}
	block := func(open string) string {
		_, rest, ok := strings.Cut(string(doc), open)
		if !ok {
			t.Fatalf("docs/gate-crd.md has no %q", open)
		}
		text, _, _ := strings.Cut(rest, "```")
		return text
	}
	orders := block("```yaml\n# orders.yaml: kubectl get paymentorders -A -o yaml\n")
	shown := block("$ modelgen gate --crd-base base.yaml --crd-revision revision.yaml --crd-objects orders.yaml\n")

	data, err := os.ReadFile(filepath.Join("..", "examples", "config", "crd", "bases", "payments.example.com_paymentorders.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var crd apiext.CustomResourceDefinition
	if err := yaml.UnmarshalStrict(data, &crd); err != nil {
		t.Fatal(err)
	}
	// The doc's example is the CRD of v1alpha1 alone, stored: the example
	// CRD now also serves v1, stored, converted by a webhook that the
	// CRDs of config/crd/bases do not name (docs/conversion.md)
	alpha := slices.IndexFunc(crd.Spec.Versions, func(v apiext.CustomResourceDefinitionVersion) bool { return v.Name == "v1alpha1" })
	if alpha < 0 {
		t.Fatal("the payments CRD has no version v1alpha1")
	}
	crd.Spec.Versions = crd.Spec.Versions[alpha : alpha+1]
	crd.Spec.Versions[0].Storage = true
	base, err := yaml.Marshal(&crd)
	if err != nil {
		t.Fatal(err)
	}
	alpha = 0
	spec := crd.Spec.Versions[alpha].Schema.OpenAPIV3Schema.Properties["spec"]
	method := spec.Properties["method"]
	method.Enum = slices.DeleteFunc(method.Enum, func(v apiext.JSON) bool { return string(v.Raw) == `"wire transfer"` })
	spec.Properties["method"] = method
	description := spec.Properties["description"]
	description.MaxLength = ptrTo[int64](64)
	spec.Properties["description"] = description
	delete(spec.Properties, "tags")
	crd.Spec.Versions[alpha].Schema.OpenAPIV3Schema.Properties["spec"] = spec
	revision, err := yaml.Marshal(&crd)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write(t, filepath.Join(dir, "base.yaml"), string(base))
	write(t, filepath.Join(dir, "revision.yaml"), string(revision))
	write(t, filepath.Join(dir, "orders.yaml"), orders)
	var out, errOut bytes.Buffer
	code := Command([]string{"-C", dir, "--crd-base", "base.yaml", "--crd-revision", "revision.yaml", "--crd-objects", "orders.yaml"}, &out, &errOut)
	if code != ExitViolation || !strings.HasPrefix(out.String(), shown) {
		t.Errorf("exit %d; the doc shows\n%s\nthe gate says\n%s%s", code, shown, out.String(), errOut.String())
	}
}

func ptrTo[T any](v T) *T { return &v }

// TestCRDObjectsOutsideTheRevision: an object whose CRD the revision drops,
// one no side defines, and a CRD converted by a webhook (judged in the
// object's own version only).
func TestCRDObjectsOutsideTheRevision(t *testing.T) {
	dir := t.TempDir()
	two := func(group, conversion string) string {
		return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.` + group + `}
spec:
  group: ` + group + `
  names: {kind: Widget, plural: widgets, singular: widget, listKind: WidgetList}
  scope: Namespaced
` + conversion + `  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {a: {type: string}, b: {type: string}}}}}}}
  - {name: v2, served: true, storage: false, schema: {openAPIV3Schema: {type: object, properties: {spec: {type: object, properties: {a: {type: string}}}}}}}
`
	}
	webhook := "  conversion:\n    strategy: Webhook\n    webhook:\n      conversionReviewVersions: [v1]\n      clientConfig: {url: 'https://convert.example.com/'}\n"
	write(t, filepath.Join(dir, "base.yaml"), two("gone.io", "")+"---\n"+two("hook.io", webhook))
	write(t, filepath.Join(dir, "revision.yaml"), two("hook.io", webhook))
	write(t, filepath.Join(dir, "objects.yaml"), `apiVersion: v1
kind: List
items:
- {apiVersion: gone.io/v1, kind: Widget, metadata: {name: gone, namespace: d}, spec: {a: x}}
- {apiVersion: other.io/v1, kind: Gadget, metadata: {name: other, namespace: d}}
- {apiVersion: hook.io/v1, kind: Widget, metadata: {name: hooked, namespace: d}, spec: {a: x, b: bee}}
`)
	write(t, filepath.Join(dir, "case.yaml"), "note: outside the revision\n")
	r, code := runObjects(t, dir)
	var got []string
	for _, f := range r.Objects {
		got = append(got, f.Name+" "+f.Verdict.String()+" "+f.Rule)
	}
	want := []string{"gone error object-crd-removed", "other info object-kind-unknown", "hooked info object-conversion-webhook"}
	if !slices.Equal(got, want) || code != ExitViolation {
		t.Errorf("exit %d, findings %q, want %q", code, got, want)
	}
}

// TestCRDObjectsReportShape: with --crd-objects the JSON report has an
// objects list (empty when no object has a finding) and the text report a
// line on the stored objects; without it, neither.
func TestCRDObjectsReportShape(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "crd.yaml"), widgetCRD)
	write(t, filepath.Join(dir, "none.yaml"), "apiVersion: v1\nkind: List\nitems: []\n")
	args := []string{"-C", dir, "--crd-base", "crd.yaml", "--crd-revision", "crd.yaml"}
	for _, c := range []struct {
		extra    []string
		contains string
		want     bool
	}{
		{[]string{"--crd-objects", "none.yaml", "--format", "json"}, `"objects": []`, true},
		{[]string{"--format", "json"}, `"objects"`, false},
		{[]string{"--crd-objects", "none.yaml"}, "stored objects: 0 read", true},
		{nil, "stored objects", false},
	} {
		var out, errOut bytes.Buffer
		if code := Command(append(slices.Clone(args), c.extra...), &out, &errOut); code != ExitPass {
			t.Fatalf("%v: exit %d: %s", c.extra, code, errOut.String())
		}
		if strings.Contains(out.String(), c.contains) != c.want {
			t.Errorf("%v: contains %q is %v, want %v:\n%s", c.extra, c.contains, !c.want, c.want, out.String())
		}
	}
}
