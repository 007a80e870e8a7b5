package upstream

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
	"sigs.k8s.io/yaml"

	"github.com/modelgen/modelgen/internal/testkit"
)

// proxyVersion is the version the test's module proxy serves this
// checkout of modelgen at: one of its own per run, since the go command
// keeps what it downloads in the shared module cache, and a fixed version
// would install the tree of the first run ever made (moduleProxy removes
// it from the cache when the test ends).
var proxyVersion = fmt.Sprintf("v0.99.0-test.%d", time.Now().UnixNano())

// The one line of a kubebuilder Makefile that changes to replace
// controller-gen with modelgen: the install line's package path and
// version.
const (
	installLine = "\t$(call go-install-tool,$(CONTROLLER_GEN),sigs.k8s.io/controller-tools/cmd/controller-gen,$(CONTROLLER_TOOLS_VERSION))"
)

var modelgenLine = "\t$(call go-install-tool,$(CONTROLLER_GEN),github.com/modelgen/modelgen/cmd/controller-gen," + proxyVersion + ")"

// TestKubebuilderProject: a kubebuilder v4 project (testdata/kubebuilder:
// PROJECT, the scaffold's Makefile, api/v1 with an embedded ObjectMeta in
// a template, a controller with +kubebuilder:rbac markers of every form,
// mutating and validating +kubebuilder:webhook markers), with v4.16's
// `create api --ssa` on api/v1 (the manifests line's
// applyconfiguration:headerFile="hack/boilerplate.go.txt", the package's
// +kubebuilder:ac:generate=true, the kind's +genclient), runs `make
// manifests generate` twice: as scaffolded, with controller-gen v0.23.0,
// and with the Makefile's install line changed to modelgen's
// cmd/controller-gen, which the Makefile's own go-install-tool installs
// from a module proxy. The two trees are equal: YAML as parsed objects
// (the controller-gen version annotation too), Go after the generated-code
// line, every other file byte for byte.
func TestKubebuilderProject(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Fatal("make is not installed: the kubebuilder project's Makefile cannot run")
	}
	src, err := filepath.Abs(filepath.Join("testdata", "kubebuilder"))
	if err != nil {
		t.Fatal(err)
	}
	want, got := t.TempDir(), t.TempDir()
	testkit.CopyTree(t, src, want)
	testkit.CopyTree(t, src, got)

	// as scaffolded: go-install-tool finds controller-gen installed already
	installed(t, want, filepath.Join(bin, "controller-gen"), "v0.23.0")
	runMake(t, want, nil)

	// modelgen: one line of the Makefile changes, and make installs it
	makefile := filepath.Join(got, "Makefile")
	data, err := os.ReadFile(makefile)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(string(data), installLine) != 1 {
		t.Fatalf("the Makefile has no install line %q", installLine)
	}
	if err := os.WriteFile(makefile, []byte(strings.Replace(string(data), installLine, modelgenLine, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	proxy := moduleProxy(t)
	out := runMake(t, got, []string{
		"GOPROXY=file://" + proxy + "," + goEnv(t, "GOPROXY"),
		"GONOSUMDB=github.com/modelgen/modelgen", "GOFLAGS=-mod=mod",
	})
	if !strings.Contains(out, "Downloading github.com/modelgen/modelgen/cmd/controller-gen@"+proxyVersion) {
		t.Errorf("make did not install modelgen's controller-gen:\n%s", out)
	}
	// the Makefile's edit is the one difference the trees may show
	if err := os.WriteFile(makefile, data, 0o644); err != nil {
		t.Fatal(err)
	}
	compareTrees(t, want, got, []string{
		"config/rbac/role.yaml", "config/webhook/manifests.yaml", "config/crd/bases/batch.example.com_cronjobs.yaml", "api/v1/zz_generated.deepcopy.go",
		// the apply configurations, byte for byte
		"api/v1/applyconfiguration/api/v1/cronjob.go", "api/v1/applyconfiguration/api/v1/workertemplate.go",
		"api/v1/applyconfiguration/internal/internal.go", "api/v1/applyconfiguration/utils.go",
	})
	tool(t, got, "go", "build", "./...")
}

// installed makes go-install-tool's check pass for a binary: bin/<name>
// is a link to bin/<name>-<version>.
func installed(t *testing.T, dir, binary, version string) {
	t.Helper()
	localbin := filepath.Join(dir, "bin")
	if err := os.MkdirAll(localbin, 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(binary)
	if err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(localbin, "controller-gen-"+version)
	if err := os.WriteFile(target, data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(localbin, "controller-gen")); err != nil {
		t.Fatal(err)
	}
}

func runMake(t *testing.T, dir string, extra []string) string {
	t.Helper()
	cmd := exec.Command("make", "manifests", "generate")
	cmd.Dir = dir
	cmd.Env = append(env(), extra...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make manifests generate in %s: %v\n%s", dir, err, out)
	}
	return string(out)
}

func goEnv(t *testing.T, name string) string {
	t.Helper()
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

// moduleProxy writes a file-system module proxy serving modelgen's module
// (this checkout, ../..) at proxyVersion.
func moduleProxy(t *testing.T) string {
	t.Helper()
	root := testkit.Root(t)
	proxy := t.TempDir()
	mv := module.Version{Path: "github.com/modelgen/modelgen", Version: proxyVersion}
	t.Cleanup(func() { uncache(t, mv) })
	dir := filepath.Join(proxy, "github.com", "modelgen", "modelgen", "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	info, _ := json.Marshal(map[string]string{"Version": proxyVersion, "Time": time.Now().UTC().Format(time.RFC3339)})
	zf, err := os.Create(filepath.Join(dir, proxyVersion+".zip"))
	if err != nil {
		t.Fatal(err)
	}
	defer zf.Close()
	if err := modzip.CreateFromDir(zf, mv, root); err != nil {
		t.Fatalf("zipping modelgen's module: %v", err)
	}
	for name, data := range map[string][]byte{proxyVersion + ".info": info, proxyVersion + ".mod": gomod, "list": []byte(proxyVersion + "\n")} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return proxy
}

// uncache removes a module version from the module cache: its extracted
// tree (read-only, as the go command leaves it) and its download files.
func uncache(t *testing.T, mv module.Version) {
	cache := goEnv(t, "GOMODCACHE")
	esc, err := module.EscapePath(mv.Path)
	if err != nil {
		t.Error(err)
		return
	}
	tree := filepath.Join(cache, filepath.FromSlash(esc)+"@"+mv.Version)
	_ = filepath.WalkDir(tree, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = os.Chmod(path, 0o755)
		}
		return nil
	})
	if err := os.RemoveAll(tree); err != nil {
		t.Errorf("removing %s from the module cache: %v", mv, err)
	}
	downloads, _ := filepath.Glob(filepath.Join(cache, "cache", "download", filepath.FromSlash(esc), "@v", mv.Version+".*"))
	for _, f := range downloads {
		if err := os.Remove(f); err != nil {
			t.Errorf("removing %s from the module cache: %v", mv, err)
		}
	}
}

// compareTrees compares every file of two project trees but bin/ (YAML
// under config/, what the tools write, as parsed objects; others byte for
// byte, the deepcopy files and their headers too), and controller-gen must have
// written every file of must.
func compareTrees(t *testing.T, want, got string, must []string) {
	t.Helper()
	wantFiles, gotFiles := treeFiles(t, want), treeFiles(t, got)
	if !slices.Equal(wantFiles, gotFiles) {
		t.Fatalf("the trees hold different files:\ncontroller-gen: %v\nmodelgen:       %v", wantFiles, gotFiles)
	}
	generated := 0
	for _, rel := range wantFiles {
		w, err := os.ReadFile(filepath.Join(want, rel))
		if err != nil {
			t.Fatal(err)
		}
		g, err := os.ReadFile(filepath.Join(got, rel))
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case strings.HasSuffix(rel, ".yaml") && strings.HasPrefix(rel, "config/") && !bytes.Equal(w, g):
			generated++
			compareYAMLDocs(t, rel, w, g)
		case strings.HasPrefix(filepath.Base(rel), "zz_generated."):
			generated++
			if !bytes.Equal(w, g) {
				t.Errorf("%s differs:\ncontroller-gen:\n%s\nmodelgen:\n%s", rel, w, g)
			}
		case !bytes.Equal(w, g):
			t.Errorf("%s differs", rel)
		}
	}
	t.Logf("%d files equal (%d of them as parsed objects, the rest byte for byte)", len(wantFiles), generated)
	if generated == 0 {
		t.Error("no generated file was compared: the trees hold only what the project had")
	}
	for _, m := range must {
		if !slices.Contains(wantFiles, m) {
			t.Errorf("controller-gen wrote no %s: the case no longer tests it", m)
		}
	}
}

func treeFiles(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if d.IsDir() && rel == "bin" {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// compareYAMLDocs compares two multi-document YAML files document by
// document, as parsed objects, with compare's allowances but the missing
// version annotation: the controller-gen command writes controller-gen's.
func compareYAMLDocs(t *testing.T, name string, want, got []byte) {
	t.Helper()
	w, g := yamlDocs(t, name, want), yamlDocs(t, name, got)
	if len(w) == 0 {
		t.Errorf("%s: the files differ, and controller-gen's holds no document to compare", name)
		return
	}
	if len(w) != len(g) {
		t.Errorf("%s: controller-gen wrote %d documents, modelgen %d", name, len(w), len(g))
		return
	}
	allowed := map[string]int{}
	for i := range w {
		var diffs []string
		compare(w[i], g[i], "", &diffs, allowed)
		for _, d := range diffs {
			t.Errorf("%s[%d]: %s", name, i, d)
		}
	}
}

func yamlDocs(t *testing.T, name string, data []byte) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, doc := range strings.Split("\n"+string(data), "\n---\n") {
		if strings.TrimSpace(stripComments(doc)) == "" {
			continue
		}
		var obj map[string]any
		if err := yaml.Unmarshal([]byte(doc), &obj); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out = append(out, obj)
	}
	return out
}

func stripComments(doc string) string {
	var b strings.Builder
	for _, l := range strings.Split(doc, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "#") {
			fmt.Fprintln(&b, l)
		}
	}
	return b.String()
}

// lwsManifests is LeaderWorkerSet v0.8.0's `make manifests` command and
// the object line of its `make generate`.
var lwsManifests = [][]string{
	{"rbac:roleName=manager-role", "output:rbac:artifacts:config=config/rbac",
		"crd:generateEmbeddedObjectMeta=true", "output:crd:artifacts:config=config/crd/bases",
		"webhook", "output:webhook:artifacts:config=config/webhook",
		"paths={./api/..., ./pkg/...}"},
	{"object:headerFile=hack/boilerplate.go.txt", "paths=./api/..."},
}

// TestLWS: sigs.k8s.io/lws, a real controller module with
// +kubebuilder:rbac and +kubebuilder:webhook markers in its controllers
// and a pod template in its API (so crd:generateEmbeddedObjectMeta=true
// matters: without it the API server prunes the template's labels), run
// through its own controller-gen command lines by controller-gen v0.23.0
// and by modelgen's controller-gen: role.yaml, manifests.yaml, the CRDs
// and the deepcopy code are equal. LWS is the one of lws, jobset and kueue
// that the module proxy serves whose dependencies are few.
func TestLWS(t *testing.T) {
	want, got := bothTools(t, "sigs.k8s.io/lws", "v0.8.0", lwsManifests)
	compareTrees(t, want, got, []string{"config/rbac/role.yaml", "config/webhook/manifests.yaml", "config/crd/bases/leaderworkerset.x-k8s.io_leaderworkersets.yaml", "api/leaderworkerset/v1/zz_generated.deepcopy.go"})
	crd := string(readFile(t, filepath.Join(got, "config", "crd", "bases", "leaderworkerset.x-k8s.io_leaderworkersets.yaml")))
	if !strings.Contains(crd, "labels:") {
		t.Errorf("generateEmbeddedObjectMeta: modelgen's CRD has no labels in the pod template's metadata")
	}
}

// kuberayManifests is KubeRay v1.5.0's `make manifests` command and the
// object line of its `make generate` (ray-operator/Makefile).
var kuberayManifests = [][]string{
	{"crd:maxDescLen=0,generateEmbeddedObjectMeta=true,allowDangerousTypes=true", "rbac:roleName=kuberay-operator", "webhook",
		"paths=./...", "output:crd:artifacts:config=config/crd/bases"},
	{"object:headerFile=hack/boilerplate.go.txt", "paths=./..."},
}

// TestKuberay: github.com/ray-project/kuberay/ray-operator, an operator
// module whose paths=./... reaches controller-runtime, client-go and
// Prometheus' client, and whose headerFile is empty, run through its own
// controller-gen command lines by controller-gen v0.23.0 and by modelgen's
// controller-gen: the role, the webhook manifests, the CRDs (as parsed
// objects, with the listed differences: its float32 fields' range rules)
// and the deepcopy files (byte for byte) are equal.
func TestKuberay(t *testing.T) {
	want, got := bothTools(t, "github.com/ray-project/kuberay/ray-operator", "v1.5.0", kuberayManifests)
	compareTrees(t, want, got, []string{"config/rbac/role.yaml", "config/webhook/manifests.yaml", "config/crd/bases/ray.io_rayjobs.yaml", "apis/ray/v1/zz_generated.deepcopy.go"})
}

// bothTools runs a module's controller-gen command lines in two copies of
// it, by controller-gen in want and by modelgen's controller-gen in got.
func bothTools(t *testing.T, module, version string, lines [][]string) (want, got string) {
	t.Helper()
	src := moduleSource(t, module, version)
	want, got = t.TempDir(), t.TempDir()
	testkit.CopyTree(t, src, want)
	testkit.CopyTree(t, src, got)
	for _, args := range lines {
		tool(t, want, "controller-gen", args...)
		tool(t, got, "modelgen", append([]string{"controller-gen"}, args...)...)
	}
	return want, got
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
