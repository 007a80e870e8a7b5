package upstream

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	"sigs.k8s.io/yaml"
)

// upstreamCase is one real API module, at a pinned version, and the
// package pattern both tools run on.
type upstreamCase struct {
	name, module, version, pattern string
	// approve: the group is protected; add the approval marker the first
	// run's error suggests, and nothing else
	approve bool
	// runGap, when set, is a known failure of the default run that work
	// on the OpenAPI backend has yet to remove: every error of the run
	// must contain it, and the CRD and deepcopy assertions then run on
	// `--only crd,deepcopy`. Once the default run passes, every assertion
	// runs on it, and the log says to strike the gap from here.
	runGap string
	// unreached are component schemas known to be unreachable (named map
	// key types), by document: no others may be, and these may become
	// reachable.
	unreached map[string][]string
}

// shadowedFieldGap: ProbeSpec's own authorization field hides the one of
// its embedded HTTPConfig, as encoding/json's dominance rule says, and the
// model refuses the shape (controller-gen accepts it).
const shadowedFieldGap = "the schema of HTTPConfig cannot leave it out"

var cases = []upstreamCase{
	{name: "gateway-api", module: "sigs.k8s.io/gateway-api", version: "v1.6.3", pattern: "./apis/...", approve: true,
		unreached: map[string][]string{"apis/v1/openapi.yaml": {"AnnotationKey", "LabelKey"}}},
	{name: "cluster-api-core", module: "sigs.k8s.io/cluster-api/api", version: "v1.14.2", pattern: "./core/v1beta2/..."},
	{name: "cluster-api-all", module: "sigs.k8s.io/cluster-api/api", version: "v1.14.2", pattern: "./..."},
	{name: "prometheus-operator", module: "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring", version: "v0.95.2", pattern: "./v1/...", runGap: shadowedFieldGap},
}

// approvalURL is the value the test gives the approval marker (the review
// gateway-api's own CRDs name).
const approvalURL = "https://github.com/kubernetes-sigs/gateway-api/pull/4530"

var bin string // directory of the two binaries

func TestMain(m *testing.M) {
	os.Exit(testMain(m))
}

func testMain(m *testing.M) int {
	if _, err := exec.LookPath("go"); err != nil {
		fmt.Println("upstream: the go command is not available; skipping the upstream tier")
		return 0
	}
	dir, err := os.MkdirTemp("", "modelgen-upstream-bin-")
	if err != nil {
		fmt.Println(err)
		return 1
	}
	defer os.RemoveAll(dir)
	bin = dir
	for _, pkg := range []string{"github.com/modelgen/modelgen/cmd/modelgen", "sigs.k8s.io/controller-tools/cmd/controller-gen"} {
		cmd := exec.Command("go", "build", "-o", dir, pkg)
		if out, err := cmd.CombinedOutput(); err != nil {
			fmt.Printf("building %s: %v\n%s", pkg, err, out)
			return 1
		}
	}
	return m.Run()
}

func TestUpstreamModules(t *testing.T) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { runCase(t, c) })
	}
}

func runCase(t *testing.T, c upstreamCase) {
	src := moduleSource(t, c.module, c.version)
	dir := t.TempDir()
	copyTree(t, src, dir)
	out, code := runTool(t, dir, "modelgen", "generate", c.pattern)
	if c.approve {
		if code != 1 {
			t.Fatalf("a protected group without approval: want exit 1, got %d\n%s", code, out)
		}
		n := addApprovalMarkers(t, dir, out)
		t.Logf("added the suggested approval marker to %d kinds", n)
		out, code = runTool(t, dir, "modelgen", "generate", c.pattern)
	}
	if c.runGap != "" && code == 0 {
		t.Logf("the known gap %q is gone: the default run passes; strike it from the case", c.runGap)
		c.runGap = ""
	}
	if c.runGap != "" {
		if n, gap := strings.Count(out, ": the "), strings.Count(out, c.runGap); gap == 0 || strings.Count(out, "error(s); nothing written") != 1 || !onlyGapErrors(out, c.runGap) {
			t.Fatalf("the default run fails otherwise than by the known gap (%d of %d):\n%s", gap, n, out)
		}
		t.Logf("known gap of the default run: %q; checking CRDs and deepcopy with --only crd,deepcopy", c.runGap)
		out, code = runTool(t, dir, "modelgen", "generate", "--only", "crd,deepcopy", c.pattern)
		if code != 0 && onlyGapErrors(out, c.runGap) {
			t.Logf("the known gap stops --only crd,deepcopy too: nothing more to check")
			return
		}
	}
	if code != 0 {
		t.Fatalf("modelgen generate %s: exit %d\n%s", c.pattern, code, out)
	}
	t.Logf("%s", lastLine(out))
	// controller-gen on the same input (with the approval marker, if any)
	cgOut := t.TempDir()
	tool(t, dir, "controller-gen", "crd", "paths="+c.pattern, "output:crd:dir="+cgOut)

	crdDir := filepath.Join(dir, "config", "crd", "bases")
	compareCRDs(t, cgOut, crdDir)
	validateCRDs(t, crdDir)
	if c.runGap == "" {
		validateOpenAPI(t, dir, c.unreached)
	}
	// the deepcopy code (and all else generated) compiles with the package
	tool(t, dir, "go", "build", c.pattern)
	if !anyFile(t, dir, "zz_generated.deepcopy.go", "// Code generated by modelgen. DO NOT EDIT.") {
		t.Errorf("modelgen wrote no deepcopy file")
	}
}

// moduleSource downloads a module version through the module proxy (or
// finds it in the module cache) and returns its directory.
func moduleSource(t *testing.T, module, version string) string {
	t.Helper()
	cmd := exec.Command("go", "mod", "download", "-json", module+"@"+version)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go mod download %s@%s: %v\n%s", module, version, err, out)
	}
	var info struct{ Dir, Error string }
	if err := json.Unmarshal(out, &info); err != nil || info.Dir == "" {
		t.Fatalf("go mod download %s@%s: %s %v", module, version, info.Error, err)
	}
	return info.Dir
}

func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		target := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func env() []string {
	// the copy is a module of its own: no workspace, and the go command may
	// complete its go.sum
	return append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
}

func runTool(t *testing.T, dir, name string, args ...string) (string, int) {
	t.Helper()
	path := name
	if name != "go" {
		path = filepath.Join(bin, name)
	}
	cmd := exec.Command(path, args...)
	cmd.Dir, cmd.Env = dir, env()
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return string(out), ee.ExitCode()
	}
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return string(out), 0
}

func tool(t *testing.T, dir, name string, args ...string) {
	t.Helper()
	if out, code := runTool(t, dir, name, args...); code != 0 {
		t.Fatalf("%s %s: exit %d\n%s", name, strings.Join(args, " "), code, out)
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// approvalError matches modelgen's protected-group error and the marker it
// suggests.
var approvalError = regexp.MustCompile(`(?m)^([^:\n]+\.go):(\d+):\d+: the API server would reject CRD \S+: metadata\.annotations\[api-approved\.kubernetes\.io\]: .*add the line\n\t(// \+kubebuilder:metadata:annotations="api-approved\.kubernetes\.io=<URL of the API review>")\n`)

// addApprovalMarkers puts the marker each error suggests, with the URL
// filled in, on the line above the type the error names. Every error of
// the run must be such an error.
func addApprovalMarkers(t *testing.T, dir, out string) int {
	t.Helper()
	matches := approvalError.FindAllStringSubmatch(out, -1)
	if errs := strings.Count(out, "the API server would reject CRD"); len(matches) == 0 || errs != len(matches) {
		t.Fatalf("want only approval errors naming the marker; %d of %d errors do:\n%s", len(matches), errs, out)
	}
	byFile := map[string][]int{}
	for _, m := range matches {
		line, _ := strconv.Atoi(m[2])
		byFile[m[1]] = append(byFile[m[1]], line)
		if !strings.HasPrefix(m[3], "// +kubebuilder:metadata:annotations=") {
			t.Fatalf("unexpected suggestion %q", m[3])
		}
	}
	marker := strings.Replace(matches[0][3], "<URL of the API review>", approvalURL, 1)
	for file, lines := range byFile {
		path := filepath.Join(dir, file)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		src := strings.Split(string(data), "\n")
		sort.Sort(sort.Reverse(sort.IntSlice(lines)))
		for _, l := range lines {
			if !strings.HasPrefix(src[l-1], "type ") {
				t.Fatalf("%s:%d is not a type declaration: %q", file, l, src[l-1])
			}
			src = slices.Insert(src, l-1, marker)
		}
		if err := os.WriteFile(path, []byte(strings.Join(src, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return len(matches)
}

func anyFile(t *testing.T, dir, name, contains string) bool {
	t.Helper()
	found := false
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == name {
			if data, err := os.ReadFile(path); err == nil && bytes.Contains(data, []byte(contains)) {
				found = true
			}
		}
		return nil
	})
	return found
}

func readYAML(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var obj map[string]any
	if err := yaml.Unmarshal(data, &obj); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return obj
}

// compareCRDs: the same CRD files, each equal to controller-gen's as a
// parsed object apart from the differences the README lists.
func compareCRDs(t *testing.T, want, got string) {
	t.Helper()
	wantFiles, gotFiles := yamlFiles(t, want), yamlFiles(t, got)
	if !slices.Equal(wantFiles, gotFiles) {
		t.Fatalf("CRD files differ:\ncontroller-gen: %v\nmodelgen:       %v", wantFiles, gotFiles)
	}
	allowed := map[string]int{}
	for _, name := range wantFiles {
		var diffs []string
		compare(readYAML(t, filepath.Join(want, name)), readYAML(t, filepath.Join(got, name)), "", &diffs, allowed)
		for _, d := range diffs {
			t.Errorf("%s: %s", name, d)
		}
	}
	t.Logf("%d CRDs; README-listed differences: %v", len(wantFiles), allowed)
}

func yamlFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".yaml") {
			out = append(out, e.Name())
		}
	}
	return out
}

// unsignedMax are the maximums modelgen writes for unsigned Go integers
// (uint8, uint16, uint32), which controller-gen leaves out.
var unsignedMax = map[float64]bool{255: true, 65535: true, 4294967295: true}

// compare walks two parsed CRDs and records every difference that is not
// one of the README's "Differences from controller-gen":
//   - no controller-gen.kubebuilder.io/version annotation;
//   - unsigned integers bounded: minimum 0 and maximum 2^bits-1 where
//     controller-gen has none;
//   - uint32 as format int64 (with that maximum) where controller-gen says
//     int32, which cannot hold it.
func compare(want, got any, path string, diffs *[]string, allowed map[string]int) {
	wm, wok := want.(map[string]any)
	gm, gok := got.(map[string]any)
	if wok && gok {
		for _, k := range sortedKeys(wm, gm) {
			wv, inW := wm[k]
			gv, inG := gm[k]
			p := path + "." + k
			switch {
			case inW && inG:
				if k == "format" && wv == "int32" && gv == "int64" && gm["maximum"] == 4294967295.0 {
					allowed["uint32 is int64"]++
					continue
				}
				compare(wv, gv, p, diffs, allowed)
			case inW && path == ".metadata.annotations" && k == "controller-gen.kubebuilder.io/version":
				allowed["no controller-gen version annotation"]++
			case inW && path == ".metadata" && k == "annotations" && len(wv.(map[string]any)) == 1 && wv.(map[string]any)["controller-gen.kubebuilder.io/version"] != nil:
				allowed["no controller-gen version annotation"]++
			case inG && k == "maximum" && unsignedMax[asFloat(gv)] && gm["type"] == "integer":
				allowed["unsigned maximum"]++
			case inG && k == "minimum" && asFloat(gv) == 0 && unsignedMax[asFloat(gm["maximum"])] && gm["type"] == "integer":
				allowed["unsigned minimum"]++
			case inW:
				*diffs = append(*diffs, fmt.Sprintf("%s: modelgen leaves out %s", p, short(wv)))
			default:
				*diffs = append(*diffs, fmt.Sprintf("%s: modelgen adds %s", p, short(gv)))
			}
		}
		return
	}
	wl, wok := want.([]any)
	gl, gok := got.([]any)
	if wok && gok && len(wl) == len(gl) {
		for i := range wl {
			compare(wl[i], gl[i], fmt.Sprintf("%s[%d]", path, i), diffs, allowed)
		}
		return
	}
	if !equalJSON(want, got) {
		*diffs = append(*diffs, fmt.Sprintf("%s: controller-gen %s, modelgen %s", path, short(want), short(got)))
	}
}

func sortedKeys(a, b map[string]any) []string {
	set := map[string]bool{}
	for k := range a {
		set[k] = true
	}
	for k := range b {
		set[k] = true
	}
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func asFloat(v any) float64 {
	f, _ := v.(float64)
	return f
}

func equalJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

func short(v any) string {
	s, _ := json.Marshal(v)
	if len(s) > 120 {
		return string(s[:120]) + "…"
	}
	return string(s)
}

// validateCRDs runs the API server's own CRD validation on every CRD
// modelgen wrote.
func validateCRDs(t *testing.T, dir string) {
	t.Helper()
	for _, name := range yamlFiles(t, dir) {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		var crd apiext.CustomResourceDefinition
		if err := yaml.UnmarshalStrict(data, &crd); err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		internal := &apiextensions.CustomResourceDefinition{}
		if err := apiext.Convert_v1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition(&crd, internal, nil); err != nil {
			t.Errorf("%s: converting: %v", name, err)
			continue
		}
		for _, v := range internal.Spec.Versions {
			if v.Storage {
				internal.Status.StoredVersions = append(internal.Status.StoredVersions, v.Name)
			}
		}
		for _, e := range validation.ValidateCustomResourceDefinition(context.Background(), internal) {
			t.Errorf("%s: the API server rejects it: %v", name, e)
		}
	}
}

// validateOpenAPI: every OpenAPI document modelgen wrote is valid, and
// every component schema is reachable from a path.
func validateOpenAPI(t *testing.T, dir string, known map[string][]string) {
	t.Helper()
	var docs []string
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == "openapi.yaml" {
			docs = append(docs, path)
		}
		return nil
	})
	if len(docs) == 0 {
		t.Fatal("modelgen wrote no OpenAPI document")
	}
	for _, path := range docs {
		rel, _ := filepath.Rel(dir, path)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := openapi3.NewLoader().LoadFromData(data)
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		if err := doc.Validate(context.Background()); err != nil {
			t.Errorf("%s: invalid: %v", rel, err)
		}
		for _, name := range unreachable(t, data) {
			if !slices.Contains(known[rel], name) {
				t.Errorf("%s: no path reaches component schema %s", rel, name)
			}
		}
	}
	t.Logf("%d OpenAPI documents valid, every schema reachable but the known %v", len(docs), known)
}

func unreachable(t *testing.T, data []byte) []string {
	t.Helper()
	var doc map[string]any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	schemas := map[string]any{}
	if c, ok := doc["components"].(map[string]any); ok {
		schemas, _ = c["schemas"].(map[string]any)
	}
	reached := map[string]bool{}
	var queue []any
	queue = append(queue, doc["paths"])
	for len(queue) > 0 {
		node := queue[0]
		queue = queue[1:]
		switch n := node.(type) {
		case map[string]any:
			for k, v := range n {
				if s, ok := v.(string); ok && k == "$ref" && strings.HasPrefix(s, "#/components/schemas/") {
					name := strings.TrimPrefix(s, "#/components/schemas/")
					if !reached[name] {
						reached[name] = true
						queue = append(queue, schemas[name])
					}
					continue
				}
				queue = append(queue, v)
			}
		case []any:
			queue = append(queue, n...)
		}
	}
	var out []string
	for name := range schemas {
		if !reached[name] {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// onlyGapErrors reports whether every error line of a run names the gap
// (warnings aside).
func onlyGapErrors(out, gap string) bool {
	for _, line := range strings.Split(out, "\n") {
		if line == "" || strings.Contains(line, ": warning: ") || strings.HasPrefix(line, "modelgen: ") || strings.HasPrefix(line, "\t") {
			continue
		}
		if !strings.Contains(line, gap) {
			return false
		}
	}
	return true
}
