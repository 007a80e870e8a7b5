package cli_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	ctdeepcopy "sigs.k8s.io/controller-tools/pkg/deepcopy"
	"sigs.k8s.io/controller-tools/pkg/genall"

	"github.com/modelgen/modelgen/cmd/internal/cli"

	"github.com/modelgen/modelgen/internal/testkit"
)

// ctrlgenProject copies testdata/ctrlgen (an API package with a template's
// embedded ObjectMeta, a controller with +kubebuilder:rbac markers, a
// webhook package with a +kubebuilder:webhook marker) into a module of its
// own and makes it the working directory, as controller-gen runs in one.
func ctrlgenProject(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	testkit.CopyTree(t, filepath.Join("testdata", "ctrlgen"), dir)
	for _, f := range []string{"go.mod", "go.sum"} {
		if err := os.Rename(filepath.Join(dir, f+".txt"), filepath.Join(dir, f)); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("GOWORK", "off")
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Chdir(dir)
	return dir
}

func read(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestControllerGenRefuses: an option or generator modelgen does not
// implement is a usage error that names it, never ignored.
func TestControllerGenRefuses(t *testing.T) {
	tests := []struct {
		args   []string
		stderr string
	}{
		{[]string{"schemapatch:manifests=config/crd", "paths=./..."}, `generator "schemapatch" is not supported`},
		{[]string{"crd:crdVersions=v1beta1", "paths=./..."}, "crd:crdVersions=v1beta1 is not supported"},
		{[]string{"crd:deprecatedV1beta1CompatibilityPreserveUnknownFields=false"}, "crd:deprecatedV1beta1CompatibilityPreserveUnknownFields is not supported"},
		{[]string{"crd:noSuchOption=true"}, "crd:noSuchOption"},
		{[]string{"frobnicate"}, `unknown option "frobnicate"`},
		{[]string{"rbac:roleName=x", "output:crd:dir=out"}, `non-invoked generator "crd"`},
		{[]string{"paths=./..."}, "no generators specified"},
		{[]string{"crd", "-www"}, "flag -www is not supported"},
		{[]string{"crd", "crd"}, "multiple instances of 'crd'"},
	}
	for _, tt := range tests {
		r := run(append([]string{"controller-gen"}, tt.args...)...)
		if r.code != cli.ExitUsage || !strings.Contains(r.stderr, tt.stderr) {
			t.Errorf("controller-gen %q: want exit 2 and %q, got %v", tt.args, tt.stderr, r)
		}
	}
}

// TestControllerGenDefaultPlaces: without output rules every generator
// writes where controller-gen's do: config/crd, config/rbac/role.yaml,
// config/webhook/manifests.yaml and the deepcopy file in its package, with
// the headerFile and its year.
func TestControllerGenDefaultPlaces(t *testing.T) {
	dir := ctrlgenProject(t)
	r := run("controller-gen", "crd", "rbac:roleName=manager-role", "webhook", `object:headerFile="boilerplate.go.txt",year=2031`, "paths=./...")
	if r.code != cli.ExitOK {
		t.Fatalf("%v", r)
	}
	role := read(t, filepath.Join(dir, "config", "rbac", "role.yaml"))
	for _, want := range []string{"kind: ClusterRole", "name: manager-role", "- workersets/status", "kind: Role\n", "namespace: system"} {
		if !strings.Contains(role, want) {
			t.Errorf("role.yaml lacks %q:\n%s", want, role)
		}
	}
	if hooks := read(t, filepath.Join(dir, "config", "webhook", "manifests.yaml")); !strings.Contains(hooks, "name: mworkerset-v1.kb.io") || !strings.Contains(hooks, "kind: MutatingWebhookConfiguration") {
		t.Errorf("manifests.yaml:\n%s", hooks)
	}
	crd := read(t, filepath.Join(dir, "config", "crd", "jobs.example.com_workersets.yaml"))
	if strings.Contains(crd, "labels:") {
		t.Errorf("without generateEmbeddedObjectMeta the template's metadata has labels:\n%s", crd)
	}
	dc := read(t, filepath.Join(dir, "api", "v1", "zz_generated.deepcopy.go"))
	if !strings.Contains(dc, "// Copyright 2031 Example Authors.") || !strings.Contains(dc, "func (in *WorkerSet) DeepCopyObject()") {
		t.Errorf("deepcopy file:\n%s", dc)
	}
}

// TestControllerGenOutputRules: output:<gen>:<rule> and output:<rule>
// send each generator's files where controller-gen would (artifacts
// config=, dir=, stdout, none), and the crd options reach the CRD.
func TestControllerGenOutputRules(t *testing.T) {
	dir := ctrlgenProject(t)
	r := run("controller-gen", "rbac:roleName=workers", "crd:generateEmbeddedObjectMeta=true,maxDescLen=0", "webhook", "object", "paths=./...",
		"output:crd:artifacts:config=config/crd/bases", "output:webhook:dir=out/hooks", "output:object:none", "output:stdout")
	if r.code != cli.ExitOK {
		t.Fatalf("%v", r)
	}
	if !strings.Contains(r.stdout, "kind: ClusterRole") || !strings.Contains(r.stdout, "name: workers") {
		t.Errorf("output:stdout: the role is not on stdout: %v", r)
	}
	if _, err := os.Stat(filepath.Join(dir, "config", "rbac")); err == nil {
		t.Errorf("output:stdout wrote config/rbac too")
	}
	if _, err := os.Stat(filepath.Join(dir, "out", "hooks", "manifests.yaml")); err != nil {
		t.Errorf("output:webhook:dir: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "api", "v1", "zz_generated.deepcopy.go")); err == nil {
		t.Errorf("output:object:none wrote the deepcopy file")
	}
	crd := read(t, filepath.Join(dir, "config", "crd", "bases", "jobs.example.com_workersets.yaml"))
	if !strings.Contains(crd, "labels:") || !strings.Contains(crd, "annotations:") {
		t.Errorf("generateEmbeddedObjectMeta: the template's metadata has no labels or annotations:\n%s", crd)
	}
	if strings.Contains(crd, "description:") {
		t.Errorf("maxDescLen=0: the CRD keeps descriptions:\n%s", crd)
	}
}

// TestNativeRoleAndWebhookConfig: `modelgen generate` writes the role of
// the +kubebuilder:rbac markers and the manifests of the
// +kubebuilder:webhook markers too, with roleName and
// generateEmbeddedObjectMeta from modelgen.yaml, and --check then passes.
func TestNativeRoleAndWebhookConfig(t *testing.T) {
	dir := ctrlgenProject(t)
	cfg := "roleName: workers\ngenerateEmbeddedObjectMeta: true\n"
	if err := os.WriteFile(filepath.Join(dir, "api", "v1", "modelgen.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := run("generate", "./..."); r.code != cli.ExitOK {
		t.Fatalf("%v", r)
	}
	role := read(t, filepath.Join(dir, "config", "rbac", "role.yaml"))
	if !strings.Contains(role, "name: workers") || !strings.Contains(role, "# Code generated by modelgen role from ") {
		t.Errorf("role.yaml:\n%s", role)
	}
	if hooks := read(t, filepath.Join(dir, "config", "webhook", "manifests.yaml")); !strings.Contains(hooks, "name: mworkerset-v1.kb.io") {
		t.Errorf("manifests.yaml:\n%s", hooks)
	}
	if crd := read(t, filepath.Join(dir, "config", "crd", "bases", "jobs.example.com_workersets.yaml")); !strings.Contains(crd, "labels:") {
		t.Errorf("generateEmbeddedObjectMeta in modelgen.yaml: no labels in the template's metadata:\n%s", crd)
	}
	if r := run("generate", "--check", "./..."); r.code != cli.ExitOK {
		t.Errorf("--check after a run: %v", r)
	}
	// the two backends' --only names
	if r := run("generate", "--only", "role,webhookconfig", "./..."); r.code != cli.ExitOK {
		t.Errorf("--only role,webhookconfig: %v", r)
	}
}

// TestMarkerWebhookBesideGenerated: a +kubebuilder:webhook on the path of
// the validating webhook modelgen generates for a kind is an error that
// names both; the two files never configure one webhook twice.
func TestMarkerWebhookBesideGenerated(t *testing.T) {
	dir := ctrlgenProject(t)
	if err := os.WriteFile(filepath.Join(dir, "api", "v1", "modelgen.yaml"), []byte("webhook: always\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	clash := "package hooks\n\n// +kubebuilder:webhook:path=/validate-jobs-example-com-v1-workerset,mutating=false,failurePolicy=fail,sideEffects=None,groups=jobs.example.com,resources=workersets,verbs=create,versions=v1,name=vworkerset.kb.io,admissionReviewVersions=v1\n"
	if err := os.WriteFile(filepath.Join(dir, "hooks", "validate.go"), []byte(clash), 0o644); err != nil {
		t.Fatal(err)
	}
	r := run("generate", "./...")
	if r.code != cli.ExitFail || !strings.Contains(r.stderr, "serves path /validate-jobs-example-com-v1-workerset, where modelgen's generated webhook for WorkerSet is served") {
		t.Fatalf("want the clash reported: %v", r)
	}
	if _, err := os.Stat(filepath.Join(dir, "config", "webhook", "manifests.yaml")); err == nil {
		t.Errorf("a run with an error wrote manifests.yaml")
	}
}

// TestPerPackageGenerateKeepsTheModulesFiles: the README's per-package
// recipe (a //go:generate modelgen generate . line in each API package, so
// go generate ./... runs on one package at a time) leaves alone the files a
// run over the whole module generated from other packages' markers (the
// role, the webhook configuration), and --check then passes; a run over the
// whole module still removes them once no package generates them.
func TestPerPackageGenerateKeepsTheModulesFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole CLI on a scratch module several times (-short)")
	}
	dir := ctrlgenProject(t)
	if r := run("generate", "./..."); r.code != cli.ExitOK {
		t.Fatalf("%v", r)
	}
	role, hooks := filepath.Join(dir, "config", "rbac", "role.yaml"), filepath.Join(dir, "config", "webhook", "manifests.yaml")
	before := read(t, role) + read(t, hooks)
	if !strings.Contains(before, "# Code generated by modelgen role from module example.com/ctrlgen. DO NOT EDIT.") {
		t.Fatalf("role.yaml is not owned by its module:\n%s", before)
	}
	t.Chdir(filepath.Join(dir, "api", "v1"))
	if r := run("generate", "."); r.code != cli.ExitOK || strings.Contains(r.stdout, " 1 removed") || strings.Contains(r.stdout, " 2 removed") {
		t.Fatalf("generate . in the API package: %v", r)
	}
	if _, err := os.Stat(role); err != nil {
		t.Fatalf("generate . removed the module's role: %v", err)
	}
	if after := read(t, role) + read(t, hooks); after != before {
		t.Errorf("generate . changed the module's files:\n%s", after)
	}
	if r := run("generate", "--check", "./..."); r.code != cli.ExitOK {
		t.Errorf("--check of the package after the module's run: %v", r)
	}
	t.Chdir(dir)
	if r := run("generate", "--check", "./..."); r.code != cli.ExitOK {
		t.Errorf("--check of the module after generate . in a package: %v", r)
	}
	// the markers go: the module's run removes what only they made
	for _, f := range []string{filepath.Join("controller", "controller.go"), filepath.Join("hooks", "hooks.go")} {
		src := read(t, filepath.Join(dir, f))
		src = strings.ReplaceAll(src, "+kubebuilder:rbac", "kubebuilder rbac")
		src = strings.ReplaceAll(src, "+kubebuilder:webhook", "kubebuilder webhook")
		if err := os.WriteFile(filepath.Join(dir, f), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if r := run("generate", "./..."); r.code != cli.ExitOK {
		t.Fatalf("%v", r)
	}
	for _, f := range []string{role, hooks} {
		if _, err := os.Stat(f); !os.IsNotExist(err) {
			t.Errorf("%s: still there after its markers went: %v", f, err)
		}
	}
}

// TestARoleIsWrittenFromEveryPackageItsRolePathsName: a role whose
// rolePaths name packages the run does not load (velero's API packages
// carry +kubebuilder:rbac markers, and its role takes its controllers' too)
// is left as it is, with a warning at the setting, rather than rewritten
// from the loaded packages' markers alone; a run that names them all
// writes it.
func TestARoleIsWrittenFromEveryPackageItsRolePathsName(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole CLI on a scratch module several times (-short)")
	}
	dir := ctrlgenProject(t)
	types := filepath.Join(dir, "api", "v1", "types.go")
	testkit.WriteFile(t, types, strings.Replace(read(t, types), "// WorkerSet runs workers", "// +kubebuilder:rbac:groups=jobs.example.com,resources=workersets,verbs=create\n\n// WorkerSet runs workers", 1))
	testkit.WriteFile(t, filepath.Join(dir, "api", "v1", "modelgen.yaml"), "roleName: workers\nrolePaths: ./api/...,./controller/...\n")
	if r := run("generate", "./..."); r.code != cli.ExitOK {
		t.Fatalf("%v", r)
	}
	role := filepath.Join(dir, "config", "rbac", "role.yaml")
	full := read(t, role)
	for _, want := range []string{"- create", "- leases"} {
		if !strings.Contains(full, want) {
			t.Fatalf("the module's run: role.yaml lacks %q:\n%s", want, full)
		}
	}
	r := run("generate", "./api/...")
	if r.code != cli.ExitOK || !strings.Contains(r.stderr, "api/v1/modelgen.yaml:1:1: warning: role: workers (config/rbac/role.yaml) is left as it is: its rolePaths entry ./controller/... names packages this run does not load") {
		t.Errorf("generate ./api/...: want the role left with a warning: %v", r)
	}
	if got := read(t, role); got != full {
		t.Errorf("generate ./api/... rewrote the role from the API packages' markers:\n%s", got)
	}
	testkit.WriteFile(t, role, "# edited\n")
	if r := run("generate", "./api/...", "./controller/..."); r.code != cli.ExitOK || strings.Contains(r.stderr, "rolePaths") {
		t.Errorf("a run of every package the role names: %v", r)
	}
	if got := read(t, role); got != full {
		t.Errorf("a run of every package the role names wrote another role:\n%s\nwant\n%s", got, full)
	}
}

// TestWhichPatternsCoverAModule: only a pattern that names every package
// of a module lets the run remove the module's own files.
func TestWhichPatternsCoverAModule(t *testing.T) {
	const mod, modDir = "example.com/m", "/src/m"
	tests := []struct {
		pattern, dir string
		want         bool
	}{
		{"./...", "/src/m", true},
		{"./...", "/src", true},
		{"../...", "/src/m/api", true},
		{"./m/...", "/src", true},
		{"/src/m/...", "/elsewhere", true},
		{"example.com/m/...", "/src/m", true},
		{"example.com/...", "/src/m", true},
		{"./...", "/src/m/api", false},
		{".", "/src/m", false},
		{"./api/...", "/src/m", false},
		{"example.com/m/api/...", "/src/m", false},
		{"example.com/mm/...", "/src/m", false},
		{"./mm/...", "/src", false},
		{"...", "/src/m", false},
		{"example.com/m", "/src/m", false},
	}
	for _, tc := range tests {
		if got := cli.CoversModule(tc.pattern, tc.dir, mod, modDir); got != tc.want {
			t.Errorf("%q in %s: covers %s = %v, want %v", tc.pattern, tc.dir, modDir, got, tc.want)
		}
	}
}

// TestControllerGenLeavesUnknownKeywordsToTheApplication: a validate keyword
// the application registers itself (RegisterValidation) is no reason for
// the drop-in to refuse what controller-gen accepts: a warning at the
// keyword, and the CRD is written without it. The native run still refuses
// it (a typo there would silently weaken every schema).
func TestControllerGenLeavesUnknownKeywordsToTheApplication(t *testing.T) {
	dir := ctrlgenProject(t)
	types := filepath.Join(dir, "api", "v1", "types.go")
	src := strings.Replace(read(t, types), "Image             string `json:\"image\"`", "Image             string `json:\"image\" validate:\"required,imageref\"`", 1)
	if err := os.WriteFile(types, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	r := run("controller-gen", "crd", "paths=./...")
	if r.code != cli.ExitOK || !strings.Contains(r.stderr, `warning: validate: unknown keyword "imageref"`) {
		t.Fatalf("controller-gen with an application's keyword: %v", r)
	}
	if crd := read(t, filepath.Join(dir, "config", "crd", "jobs.example.com_workersets.yaml")); !strings.Contains(crd, "image:") {
		t.Errorf("no CRD with the field:\n%s", crd)
	}
	if r := run("generate", "./..."); r.code != cli.ExitFail || !strings.Contains(r.stderr, `validate: unknown keyword "imageref"`) {
		t.Errorf("the native run accepts an unknown keyword: %v", r)
	}
	// declared in modelgen.yaml: a run-time-only check, without a warning
	testkit.WriteFile(t, filepath.Join(dir, "api", "v1", "modelgen.yaml"), "validatorKeywords: imageref\nwebhook: never\n")
	if r := run("generate", "./..."); r.code != cli.ExitOK || strings.Contains(r.stderr, "imageref") {
		t.Errorf("the native run with imageref declared: %v", r)
	}
}

// TestGenerateSaysWhenItTakesOverControllerGensFiles: a file controller-gen
// wrote (its annotation, its generated-code line) that generate writes too
// gets a warning naming it, since running both never settles; a file with
// no generator's mark (the role controller-gen's rbac writes, under another
// name) gets one too; the summary counts them; once generate wrote them, no
// warning.
func TestGenerateSaysWhenItTakesOverControllerGensFiles(t *testing.T) {
	dir := ctrlgenProject(t)
	crd := filepath.Join(dir, "config", "crd", "bases", "jobs.example.com_workersets.yaml")
	dc := filepath.Join(dir, "api", "v1", "zz_generated.deepcopy.go")
	role := filepath.Join(dir, "config", "rbac", "role.yaml")
	files := map[string]string{
		crd:  "---\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  annotations:\n    controller-gen.kubebuilder.io/version: v0.23.0\n  name: workersets.jobs.example.com\n",
		dc:   "//go:build !ignore_autogenerated\n\n// Code generated by controller-gen. DO NOT EDIT.\n\npackage v1\n",
		role: "---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: operator-perms\nrules:\n- apiGroups:\n  - \"\"\n  resources:\n  - secrets\n  verbs:\n  - get\n",
	}
	for p, data := range files {
		testkit.WriteFile(t, p, data)
	}
	r := run("generate", "./...")
	if r.code != cli.ExitOK {
		t.Fatalf("%v", r)
	}
	for _, p := range []string{"config/crd/bases/jobs.example.com_workersets.yaml", "api/v1/zz_generated.deepcopy.go"} {
		if !strings.Contains(r.stderr, p+": warning: controller-gen wrote this file") {
			t.Errorf("no warning for %s:\n%s", p, r.stderr)
		}
	}
	if !strings.Contains(r.stderr, "config/rbac/role.yaml: warning: modelgen generate replaces this file, which has no generated-code line") {
		t.Errorf("no warning for the role without a generator's mark:\n%s", r.stderr)
	}
	if !strings.Contains(r.stdout, " 3 warnings;") {
		t.Errorf("the summary does not count the three warnings:\n%s", r.stdout)
	}
	if r := run("generate", "./..."); strings.Contains(r.stderr, "warning") || !strings.Contains(r.stdout, " 0 warnings;") {
		t.Errorf("a warning for modelgen's own files:\n%s\n%s", r.stderr, r.stdout)
	}
}

// TestControllerGenToolVersion: the controller-gen command's CRDs carry
// controller-gen's controller-gen.kubebuilder.io/version annotation with
// the controller-tools version modelgen is built with (so a switch leaves
// every CRD as controller-gen wrote it), crd:omitToolVersion drops it, and
// the native run writes none.
func TestControllerGenToolVersion(t *testing.T) {
	dir := ctrlgenProject(t)
	crdFile := filepath.Join(dir, "config", "crd", "jobs.example.com_workersets.yaml")
	// a test binary has no module dependencies in its build info: the
	// version is the fallback here (TestToolsVersion reads a binary's), and
	// compat/upstream's kubebuilder test finds v0.23.0 in modelgen's
	// installed controller-gen
	annotation := "metadata:\n  annotations:\n    controller-gen.kubebuilder.io/version: " + cli.ControllerToolsVersion() + "\n  name: workersets.jobs.example.com\n"
	if r := run("controller-gen", "crd", "paths=./..."); r.code != cli.ExitOK {
		t.Fatalf("%v", r)
	}
	if crd := read(t, crdFile); !strings.Contains(crd, annotation) {
		t.Errorf("the CRD lacks controller-gen's version annotation %q:\n%s", annotation, crd)
	}
	if r := run("controller-gen", "crd:omitToolVersion=true", "paths=./..."); r.code != cli.ExitOK {
		t.Fatalf("%v", r)
	}
	if crd := read(t, crdFile); strings.Contains(crd, "controller-gen.kubebuilder.io/version") {
		t.Errorf("crd:omitToolVersion=true: the CRD has the version annotation:\n%s", crd)
	}
	if r := run("generate", "./..."); r.code != cli.ExitOK {
		t.Fatalf("%v", r)
	}
	if crd := read(t, filepath.Join(dir, "config", "crd", "bases", "jobs.example.com_workersets.yaml")); strings.Contains(crd, "controller-gen.kubebuilder.io/version") {
		t.Errorf("the native run writes the version annotation:\n%s", crd)
	}
}

// TestControllerGenApplyConfiguration: the applyconfiguration generator is
// controller-tools' own, with its options (headerFile; omitToolVersion
// names controller-gen in the generated-code line) and its markers (an
// output package relative to the API directory, even outside it); its
// files go where it puts them whatever the output rules say, through
// modelgen's writer: a package it fails on leaves every file unwritten.
func TestControllerGenApplyConfiguration(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole CLI on a scratch module several times (-short)")
	}
	dir := ctrlgenProject(t)
	types := filepath.Join(dir, "api", "v1", "types.go")
	src := strings.Replace(read(t, types), "// +groupName=jobs.example.com\n", "// +kubebuilder:ac:generate=true\n// +kubebuilder:ac:output:package=\"../../pkg/ac\"\n// +groupName=jobs.example.com\n", 1)
	src = strings.Replace(src, "// +kubebuilder:object:root=true\ntype WorkerSet struct", "// +genclient\n// +kubebuilder:object:root=true\ntype WorkerSet struct", 1)
	if err := os.WriteFile(types, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	// a package the generator refuses (no +groupName)
	bad := filepath.Join(dir, "api", "v2", "types.go")
	if err := os.MkdirAll(filepath.Dir(bad), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("// +kubebuilder:ac:generate=true\npackage v2\n\n// Thing is a type.\ntype Thing struct{ A string }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"controller-gen", `applyconfiguration:headerFile="boilerplate.go.txt",omitToolVersion=true`, "paths=./...", "output:stdout"}
	r := run(args...)
	if r.code != cli.ExitFail || !strings.Contains(r.stderr, "applyconfiguration: ") || !strings.Contains(r.stderr, "groupVersion") {
		t.Fatalf("a package the generator refuses: want exit 1 naming it, got %v", r)
	}
	if _, err := os.Stat(filepath.Join(dir, "pkg")); err == nil {
		t.Fatalf("a failed run wrote the other package's apply configurations")
	}
	if err := os.RemoveAll(filepath.Dir(bad)); err != nil {
		t.Fatal(err)
	}
	r = run(args...)
	if r.code != cli.ExitOK || r.stdout != "" {
		t.Fatalf("%v", r)
	}
	ws := read(t, filepath.Join(dir, "pkg", "ac", "api", "v1", "workerset.go"))
	for _, want := range []string{" Example Authors.\n", "// Code generated by controller-gen. DO NOT EDIT.", "func WorkerSet(name, namespace string) *WorkerSetApplyConfiguration"} {
		if !strings.Contains(ws, want) {
			t.Errorf("workerset.go lacks %q:\n%s", want, ws)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "pkg", "ac", "utils.go")); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "api", "v1", "applyconfiguration")); err == nil {
		t.Error("the output package marker is ignored")
	}
	left, _ := filepath.Glob(filepath.Join(os.TempDir(), "modelgen-applyconfiguration-*"))
	if len(left) > 0 {
		t.Errorf("temporary directories left: %v", left)
	}
}

// TestControllerGenStdoutInCommandLineOrder: under output:stdout the
// generators' files come in the order the command line names the
// generators, as controller-gen prints them.
func TestControllerGenStdoutInCommandLineOrder(t *testing.T) {
	ctrlgenProject(t)
	for _, order := range [][]string{{"webhook", "rbac:roleName=r"}, {"rbac:roleName=r", "webhook"}} {
		args := append(append([]string{"controller-gen"}, order...), "paths=./...", "output:stdout")
		r := run(args...)
		if r.code != cli.ExitOK {
			t.Fatalf("%v", r)
		}
		role, hooks := strings.Index(r.stdout, "kind: ClusterRole"), strings.Index(r.stdout, "kind: MutatingWebhookConfiguration")
		if role < 0 || hooks < 0 {
			t.Fatalf("%v: stdout lacks the role or the webhooks:\n%s", order, r.stdout)
		}
		if roleFirst := strings.HasPrefix(order[0], "rbac"); (role < hooks) != roleFirst {
			t.Errorf("%v: the role at %d, the webhooks at %d: not in the command line's order", order, role, hooks)
		}
	}
}

// TestControllerGenRunCache: controller-gen's command line shares the
// native run's cache: a second run over unchanged inputs skips the
// backends and leaves the files as a full run does; a changed headerFile
// (an input the settings step reads) is a miss; a run that prints its
// output (output:stdout) never replays.
func TestControllerGenRunCache(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole CLI on a scratch module several times (-short)")
	}
	dir := ctrlgenProject(t)
	t.Setenv("MODELGEN_CACHE", filepath.Join(t.TempDir(), "cache"))
	args := []string{"controller-gen", "crd", "rbac:roleName=manager-role", "webhook", `object:headerFile="boilerplate.go.txt",year=2031`, "paths=./..."}
	if r := run(args...); r.code != cli.ExitOK { // settles go.mod
		t.Fatalf("first run: %v", r)
	}
	age(t, dir)
	deepcopy := filepath.Join(dir, "api", "v1", "zz_generated.deepcopy.go")
	crdFile := filepath.Join(dir, "config", "crd", "jobs.example.com_workersets.yaml")
	full, hit := hits(func() result { return run(args...) })
	if full.code != cli.ExitOK || hit {
		t.Fatalf("recording run: %v, hit %v", full, hit)
	}
	want := map[string]string{deepcopy: read(t, deepcopy), crdFile: read(t, crdFile)}
	r, hit := hits(func() result { return run(args...) })
	if r.code != cli.ExitOK || !hit || r.stderr != full.stderr || r.stdout != full.stdout {
		t.Fatalf("unchanged run: hit %v, %v; want a hit printing what the full run printed (%v)", hit, r, full)
	}
	for path, data := range want {
		if got := read(t, path); got != data {
			t.Errorf("%s changed on a replayed run", path)
		}
	}
	testkit.WriteFile(t, filepath.Join(dir, "boilerplate.go.txt"), "// Copyright YEAR Someone Else.\n")
	age(t, dir)
	if r, hit := hits(func() result { return run(args...) }); r.code != cli.ExitOK || hit || !strings.Contains(read(t, deepcopy), "// Copyright 2031 Someone Else.") {
		t.Errorf("after the headerFile changed: hit %v, %v, the deepcopy file starts\n%.200s", hit, r, read(t, deepcopy))
	}
	age(t, dir)
	printing := []string{"controller-gen", "crd", "paths=./...", "output:stdout"}
	for i := range 2 {
		if r, hit := hits(func() result { return run(printing...) }); r.code != cli.ExitOK || hit || !strings.Contains(r.stdout, "kind: CustomResourceDefinition") {
			t.Errorf("output:stdout, run %d: hit %v, %v", i, hit, r)
		}
	}
}

// TestControllerGenDeepcopyIsControllerGens: the object line writes the
// deepcopy file controller-tools' own object generator writes, byte for
// byte, with a headerFile and without one, so that a switch leaves every
// zz_generated.deepcopy.go in git as it was.
func TestControllerGenDeepcopyIsControllerGens(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole CLI on a scratch module several times (-short)")
	}
	dir := ctrlgenProject(t)
	dc := filepath.Join(dir, "api", "v1", "zz_generated.deepcopy.go")
	for _, g := range []ctdeepcopy.Generator{{}, {HeaderFile: "boilerplate.go.txt", Year: "2031"}} {
		arg := "object"
		if g.HeaderFile != "" {
			arg = `object:headerFile="` + g.HeaderFile + `",year=` + g.Year
		}
		t.Run(arg, func(t *testing.T) {
			want := controllerToolsDeepcopy(t, g)
			if r := run("controller-gen", arg, "paths=./api/..."); r.code != cli.ExitOK {
				t.Fatalf("%v", r)
			}
			if got := read(t, dc); got != want {
				t.Errorf("the deepcopy file differs from controller-tools'\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// controllerToolsDeepcopy runs controller-tools' object generator on
// ./api/... in process and returns the file it writes for api/v1.
func controllerToolsDeepcopy(t *testing.T, g ctdeepcopy.Generator) string {
	t.Helper()
	out := t.TempDir()
	var gen genall.Generator = g
	gens := genall.Generators{&gen}
	rt, err := gens.ForRoots("./api/...")
	if err != nil {
		t.Fatal(err)
	}
	rt.OutputRules = genall.OutputRules{Default: genall.OutputArtifacts{Code: genall.OutputToDirectory(out)}}
	if rt.Run() {
		t.Fatal("controller-tools' object generator failed")
	}
	return read(t, filepath.Join(out, "zz_generated.deepcopy.go"))
}
