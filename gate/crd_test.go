package gate

import (
	modelconv "github.com/modelgen/modelgen/conversion"

	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oasdiff/oasdiff/checker"
	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/modelgen/modelgen/internal/testkit"
)

// TestCRDRuleTable audits the CRD rule table: unique ids that collide with
// neither the OpenAPI gate's nor oasdiff's, a reason and a message format
// each, and ratcheting only on the tightening (warning) rules.
func TestCRDRuleTable(t *testing.T) {
	seen := map[string]bool{}
	oasdiffIDs := checker.GetAllRuleIds()
	for _, r := range CRDRules() {
		if seen[r.ID] || ruleByID[r.ID].ID != "" || slices.Contains(oasdiffIDs, r.ID) || !strings.HasPrefix(r.ID, "crd-") {
			t.Errorf("%s: duplicate or unprefixed id", r.ID)
		}
		seen[r.ID] = true
		if r.Reason == "" || r.Format == "" {
			t.Errorf("%s: missing reason or format", r.ID)
		}
		if r.Ratcheted && r.Level != LevelWarning {
			t.Errorf("%s: a ratcheted rule is a warning (tightened for new writes only)", r.ID)
		}
		// warnings the server grants stored objects without KEP-4008: a
		// transition rule now run on create
		notKEP := []string{CRDRuleOptionalOldSelfAdded}
		if r.Level == LevelWarning && !r.Ratcheted && !slices.Contains(notKEP, r.ID) {
			t.Errorf("%s: a warning that is not ratcheted must say why in the audit", r.ID)
		}
	}
	// every removed/tightened rule has an added/loosened twin (the storage
	// version is moved, never added)
	for _, r := range CRDRules() {
		if r.ID == CRDRuleStorageVersionRemoved {
			continue
		}
		for _, pair := range [][2]string{{"-removed", "-added"}, {"-tightened", "-loosened"}} {
			if stem, ok := strings.CutSuffix(r.ID, pair[0]); ok && !seen[stem+pair[1]] {
				t.Errorf("%s: no %s twin", r.ID, pair[1])
			}
		}
	}
}

// TestCRDCases runs the gate on every case folder of testdata/crd (a base
// and a revision CRD) and compares its text report with want.txt;
// go test ./gate -run TestCRDCases -update rewrites them.
func TestCRDCases(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join("testdata", "crd", "*"))
	if len(dirs) < 30 {
		t.Fatalf("found %d case folders", len(dirs))
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := Command([]string{"-C", dir, "--crd-base", "base.yaml", "--crd-revision", "revision.yaml"}, &out, &errOut)
			if code == ExitError {
				t.Fatalf("exit 2: %s", errOut.String())
			}
			got := out.String()
			if !testkit.Golden(t, filepath.Join(dir, "want.txt"), got) || testkit.Update() {
				return
			}
			if (code == ExitViolation) != strings.Contains(got, "; FAIL") {
				t.Errorf("exit %d does not match the verdict", code)
			}
		})
	}
}

func runCRD(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := Command(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// TestCRDKubeVersion: below 1.30 the server ratchets nothing, so a
// tightening is breaking; from 1.30 it is a warning and the gate passes.
func TestCRDKubeVersion(t *testing.T) {
	dir := filepath.Join("testdata", "crd", "max-length-tightened")
	for _, c := range []struct {
		version string
		code    int
		level   string
	}{{"", ExitPass, "warning"}, {"1.30", ExitPass, "warning"}, {"1.33", ExitPass, "warning"}, {"1.29", ExitViolation, "error"}, {"v1.28.3", ExitViolation, "error"}} {
		args := []string{"-C", dir, "--crd-base", "base.yaml", "--crd-revision", "revision.yaml", "--format", "json"}
		if c.version != "" {
			args = append(args, "--kube-version", c.version)
		}
		code, out, errOut := runCRD(t, args...)
		var report CRDReport
		if err := json.Unmarshal([]byte(out), &report); err != nil {
			t.Fatalf("%s: %v\n%s", c.version, err, errOut)
		}
		if code != c.code || len(report.Changes) != 1 || report.Changes[0].Level.String() != c.level {
			t.Errorf("--kube-version %q: exit %d, changes %+v; want exit %d and one %s", c.version, code, report.Changes, c.code, c.level)
		}
	}
	if code, _, errOut := runCRD(t, "-C", dir, "--crd-base", "base.yaml", "--crd-revision", "revision.yaml", "--kube-version", "1"); code != ExitError || !strings.Contains(errOut, "want X.Y") {
		t.Errorf("--kube-version 1: exit %d, %s", code, errOut)
	}
}

// TestCRDJSONFields: --format json lists each change with id, level, crd,
// version, path and message.
func TestCRDJSONFields(t *testing.T) {
	_, out, _ := runCRD(t, "-C", filepath.Join("testdata", "crd", "field-removed"), "--crd-base", "base.yaml", "--crd-revision", "revision.yaml", "--format", "json")
	var raw struct {
		Changes []map[string]any `json:"changes"`
	}
	if err := json.Unmarshal([]byte(out), &raw); err != nil || len(raw.Changes) != 1 {
		t.Fatalf("%v: %s", err, out)
	}
	want := map[string]any{"id": "crd-field-removed", "level": "error", "crd": "widgets.field-removed.gate.modelgen.io", "version": "v1", "path": ".spec.b"}
	for k, v := range want {
		if raw.Changes[0][k] != v {
			t.Errorf("%s = %v, want %v", k, raw.Changes[0][k], v)
		}
	}
	if raw.Changes[0]["message"] == "" {
		t.Error("no message")
	}
}

// TestCRDInputErrors: every malformed side is exit 2 with a positioned
// message, all of one side's errors at once.
func TestCRDInputErrors(t *testing.T) {
	good, err := os.ReadFile(filepath.Join("testdata", "crd", "field-added", "base.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name, data string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("good.yaml", string(good))
	write("beta.yaml", strings.Replace(string(good), "apiextensions.k8s.io/v1", "apiextensions.k8s.io/v1beta1", 1))
	write("unknown.yaml", strings.Replace(string(good), "  scope: Namespaced", "  scope: Namespaced\n  scoop: x", 1))
	write("twice.yaml", string(good)+"---\n"+string(good))
	write("notstructural.yaml", strings.Replace(string(good), "              a:\n                type: string", "              a: {}", 1))
	write("nostorage.yaml", strings.Replace(string(good), "storage: true", "storage: false", 1))
	write("bomb.yaml", "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n")
	write("empty.yaml", "apiVersion: v1\nkind: ConfigMap\n")
	for _, c := range []struct{ file, want string }{
		{"beta.yaml", "beta.yaml:1:1: apiVersion apiextensions.k8s.io/v1beta1"},
		{"unknown.yaml", `unknown.yaml:1:1: not a CustomResourceDefinition: json: unknown field "scoop"`},
		{"twice.yaml", "is defined again (first at twice.yaml:1:1)"},
		{"notstructural.yaml", "not structural"},
		{"nostorage.yaml", "0 storage versions"},
		{"bomb.yaml", "max-yaml-alias-nodes"},
		{"empty.yaml", "no CustomResourceDefinition found"},
		{"missing.yaml", "no such file"},
		{"/dev/zero", "character device"},
	} {
		code, _, errOut := runCRD(t, "-C", dir, "--crd-base", "good.yaml", "--crd-revision", c.file)
		if code != ExitError || !strings.Contains(errOut, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 and %q", c.file, code, errOut, c.want)
		}
	}
	for _, args := range [][]string{
		{"--crd-base", "good.yaml"},
		{"--crd-base", "good.yaml", "--crd-revision", "good.yaml", "--base", "openapi.yaml"},
		{"--crd-base", "good.yaml", "--crd-revision", "good.yaml", "--format", "xml"},
	} {
		if code, _, _ := runCRD(t, append([]string{"-C", dir}, args...)...); code != ExitError {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

// TestCRDDirectoryAndGit: a side may be a directory (kustomization.yaml and
// other kinds skipped) or git:<ref>:<dir>; CRDs pair by name, whatever
// their file names.
func TestCRDDirectoryAndGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := t.TempDir()
	gitIn := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	copyCase := func(name, side, to string) {
		data, err := os.ReadFile(filepath.Join("testdata", "crd", name, side))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(repo, to)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(repo, to), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitIn("init", "-q")
	copyCase("field-removed", "base.yaml", "crds/a.yaml")
	copyCase("enum-narrowed", "base.yaml", "crds/b.yaml")
	if err := os.WriteFile(filepath.Join(repo, "crds", "kustomization.yaml"), []byte("resources: [a.yaml, b.yaml]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitIn("add", "-A")
	gitIn("commit", "-qm", "base")
	gitIn("tag", "v1.0.0")
	if err := os.Remove(filepath.Join(repo, "crds", "a.yaml")); err != nil {
		t.Fatal(err)
	}
	copyCase("field-removed", "revision.yaml", "crds/renamed.yaml")
	copyCase("enum-narrowed", "revision.yaml", "crds/b.yaml")
	code, out, errOut := runCRD(t, "-C", repo, "--crd-base", "git:v1.0.0:crds", "--crd-revision", "crds")
	if code != ExitViolation || !strings.Contains(out, "crd-field-removed") || !strings.Contains(out, "crd-enum-narrowed") || strings.Contains(out, "crd-removed") {
		t.Errorf("exit %d\n%s%s", code, out, errOut)
	}
	code, _, errOut = runCRD(t, "-C", repo, "--crd-base", "git:v9:crds", "--crd-revision", "crds")
	if code != ExitError || !strings.Contains(errOut, `git ref "v9" does not exist`) {
		t.Errorf("missing ref: exit %d, %s", code, errOut)
	}
}

// TestCRDRemovalNeedsMajorModule: un-serving a version is breaking, unless
// the Go module's major version moved (its API package goes with it); an
// incompatible change inside a version stays breaking whatever the module.
func TestCRDRemovalNeedsMajorModule(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := t.TempDir()
	gitIn := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	put := func(name, data string) {
		if err := os.WriteFile(filepath.Join(repo, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	caseFile := func(name, side string) string {
		data, err := os.ReadFile(filepath.Join("testdata", "crd", name, side))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	gitIn("init", "-q")
	put("go.mod", "module example.com/shop\n\ngo 1.26\n")
	put("crd.yaml", caseFile("version-unserved", "base.yaml"))
	gitIn("add", "-A")
	gitIn("commit", "-qm", "v1")
	gitIn("tag", "v1.4.0")
	put("crd.yaml", caseFile("version-unserved", "revision.yaml"))
	args := []string{"-C", repo, "--crd-base", "git:v1.4.0:crd.yaml", "--crd-revision", "crd.yaml", "--go-mod", "go.mod"}
	if code, out, errOut := runCRD(t, args...); code != ExitViolation {
		t.Errorf("same module major: exit %d\n%s%s", code, out, errOut)
	}
	put("go.mod", "module example.com/shop/v2\n\ngo 1.26\n")
	if code, out, errOut := runCRD(t, args...); code != ExitPass || !strings.Contains(out, "moved from v1 to v2") {
		t.Errorf("module v2: exit %d\n%s%s", code, out, errOut)
	}
	rev := caseFile("version-unserved", "revision.yaml")
	i := strings.Index(rev, "a:\n                type: string")
	if i < 0 {
		t.Fatal("no field a in the revision")
	}
	put("crd.yaml", rev[:i]+"a:\n                type: integer"+rev[i+len("a:\n                type: string"):])
	if code, out, errOut := runCRD(t, args...); code != ExitViolation || !strings.Contains(out, "crd-type-changed") {
		t.Errorf("module v2, type changed in place: exit %d\n%s%s", code, out, errOut)
	}
	if code, _, errOut := runCRD(t, "-C", repo, "--crd-base", "crd.yaml", "--crd-revision", "crd.yaml", "--go-mod", "go.mod"); code != ExitError || !strings.Contains(errOut, "--crd-base-go-mod") {
		t.Errorf("file base without --crd-base-go-mod: exit %d %s", code, errOut)
	}
	put("crd.yaml", rev)
	if code, _, errOut := runCRD(t, "-C", repo, "--crd-base", "crd.yaml", "--crd-revision", "crd.yaml", "--go-mod", "go.mod"); code != ExitError || !strings.Contains(errOut, "--crd-base-go-mod") {
		t.Errorf("file base without --crd-base-go-mod: exit %d %s", code, errOut)
	}
}

// TestCRDDocListsEveryRule: docs/gate-crd.md lists every rule id of the CRD
// table, in its order, with its level and reason (the table is rewritten
// with -update), and mentions the OpenAPI side's Kubernetes rules.
func TestCRDDocListsEveryRule(t *testing.T) {
	path := filepath.Join("..", "docs", "gate-crd.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	const header = "| id | level | what the API server does |\n|---|---|---|\n"
	start := strings.Index(doc, header)
	if start < 0 {
		t.Fatalf("docs/gate-crd.md has no rule table (%q)", header)
	}
	start += len(header)
	end := start + strings.Index(doc[start:], "\n\n") + 1
	var table strings.Builder
	for _, r := range CRDRules() {
		level := r.Level.String()
		if r.Ratcheted {
			level += " (ratcheted)"
		}
		fmt.Fprintf(&table, "| `%s` | %s | %s |\n", r.ID, level, strings.ReplaceAll(r.Reason, "|", "\\|"))
	}
	testkit.Golden(t, path, doc[:start]+table.String()+doc[end:])
	for _, id := range []string{RuleKubeValidationAdded, RuleKubeListTypeChanged} {
		if !strings.Contains(doc, strings.TrimSuffix(id, "-added")) {
			t.Errorf("docs/gate-crd.md does not mention %s", id)
		}
	}
}

// TestCRDDecodedAsKubectlDecodes: an unquoted y in a CRD is the boolean
// true to kubectl (sigs.k8s.io/yaml, YAML 1.1), so an enum value written y
// and then "y" changed, and the gate says so.
func TestCRDDecodedAsKubectlDecodes(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "crd", "enum-widened", "base.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "- x\n") {
		t.Fatal("the fixture has no enum value x")
	}
	dir := t.TempDir()
	for name, value := range map[string]string{"base.yaml": "- y\n", "revision.yaml": "- \"y\"\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(strings.Replace(string(data), "- x\n", value, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, out, errOut := runCRD(t, "-C", dir, "--crd-base", "base.yaml", "--crd-revision", "revision.yaml")
	if !strings.Contains(out, "crd-enum-narrowed") || !strings.Contains(out, "true") {
		t.Errorf("y and \"y\" compared equal:\n%s%s", out, errOut)
	}
}

// TestCRDConversionGaps: with conversion None, the fields one served
// version has and the storage version lacks (either way) are the gaps;
// a place that keeps unknown fields keeps everything below it, and list
// items and map values count as fields.
func TestCRDConversionGaps(t *testing.T) {
	str := apiext.JSONSchemaProps{Type: "string"}
	obj := func(props map[string]apiext.JSONSchemaProps) apiext.JSONSchemaProps {
		return apiext.JSONSchemaProps{Type: "object", Properties: props}
	}
	preserved := func(s apiext.JSONSchemaProps) apiext.JSONSchemaProps {
		yes := true
		s.XPreserveUnknownFields = &yes
		return s
	}
	list := func(item apiext.JSONSchemaProps) apiext.JSONSchemaProps {
		return apiext.JSONSchemaProps{Type: "array", Items: &apiext.JSONSchemaPropsOrArray{Schema: &item}}
	}
	crd := func(stored, served apiext.JSONSchemaProps) *apiext.CustomResourceDefinition {
		version := func(name string, storage bool, spec apiext.JSONSchemaProps) apiext.CustomResourceDefinitionVersion {
			root := obj(map[string]apiext.JSONSchemaProps{"spec": spec})
			return apiext.CustomResourceDefinitionVersion{Name: name, Served: true, Storage: storage, Schema: &apiext.CustomResourceValidation{OpenAPIV3Schema: &root}}
		}
		return &apiext.CustomResourceDefinition{Spec: apiext.CustomResourceDefinitionSpec{Versions: []apiext.CustomResourceDefinitionVersion{
			version("v1", true, stored), version("v2", false, served),
		}}}
	}
	for _, c := range []struct {
		name           string
		stored, served apiext.JSONSchemaProps
		want           []string
	}{
		{"same", obj(map[string]apiext.JSONSchemaProps{"a": str}), obj(map[string]apiext.JSONSchemaProps{"a": str}), nil},
		{"storage has more", obj(map[string]apiext.JSONSchemaProps{"a": str, "b": str}), obj(map[string]apiext.JSONSchemaProps{"a": str}), []string{"read .spec.b"}},
		{"served has more", obj(map[string]apiext.JSONSchemaProps{"a": str}), obj(map[string]apiext.JSONSchemaProps{"a": str, "c": obj(map[string]apiext.JSONSchemaProps{"d": str})}), []string{"write .spec.c"}},
		{"served preserves", obj(map[string]apiext.JSONSchemaProps{"a": str, "b": str}), preserved(obj(map[string]apiext.JSONSchemaProps{"a": str})), nil},
		{"storage preserves", preserved(obj(nil)), obj(map[string]apiext.JSONSchemaProps{"c": obj(map[string]apiext.JSONSchemaProps{"d": str})}), nil},
		{"list items", obj(map[string]apiext.JSONSchemaProps{"l": list(obj(map[string]apiext.JSONSchemaProps{"x": str}))}), obj(map[string]apiext.JSONSchemaProps{"l": list(obj(nil))}), []string{"read .spec.l[].x"}},
	} {
		d := &crdDiffer{maxPairs: 1000}
		var got []string
		for _, g := range d.conversionGaps(crd(c.stored, c.served), "v1") {
			got = append(got, map[bool]string{false: "read ", true: "write "}[g.write]+g.path)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: gaps %v, want %v", c.name, got, c.want)
		}
	}
}

// TestCRDRefusedBase: a base the API server refuses on create was never
// installed: exit 2 with its position; the same CRD as a revision is a
// crd-refused error (exit 1).
func TestCRDRefusedBase(t *testing.T) {
	dir := filepath.Join("testdata", "crd", "refused-unique-items")
	code, out, errOut := runCRD(t, "-C", dir, "--crd-base", "revision.yaml", "--crd-revision", "base.yaml")
	if code != ExitError || !strings.Contains(errOut, "revision.yaml:1:1: the API server refuses CRD") || !strings.Contains(errOut, "uniqueItems") {
		t.Errorf("invalid base: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = runCRD(t, "-C", dir, "--crd-base", "base.yaml", "--crd-revision", "revision.yaml")
	if code != ExitViolation || !strings.Contains(out, "crd-refused") {
		t.Errorf("invalid revision: exit %d\n%s%s", code, out, errOut)
	}
}

// TestCRDCELAtKubeVersion: a new CEL rule is compiled with the libraries
// of the oldest Kubernetes given (the IP library needs 1.31); a rule the
// base already had is not judged again.
func TestCRDCELAtKubeVersion(t *testing.T) {
	dir := filepath.Join("testdata", "crd", "cel-rule-unavailable")
	for _, c := range []struct {
		version string
		code    int
	}{{"1.30", ExitViolation}, {"1.31", ExitPass}, {"1.36", ExitPass}} {
		code, out, errOut := runCRD(t, "-C", dir, "--crd-base", "base.yaml", "--crd-revision", "revision.yaml", "--kube-version", c.version)
		if code != c.code || (code == ExitViolation) != strings.Contains(out, "crd-cel-rule-unavailable") {
			t.Errorf("--kube-version %s: exit %d, want %d\n%s%s", c.version, code, c.code, out, errOut)
		}
	}
	code, out, errOut := runCRD(t, "-C", dir, "--crd-base", "revision.yaml", "--crd-revision", "revision.yaml", "--kube-version", "1.30")
	if code != ExitPass || strings.Contains(out, "crd-cel-rule-unavailable") {
		t.Errorf("a rule the base has: exit %d\n%s%s", code, out, errOut)
	}
}

// TestCRDHeldFieldKubeVersion: a constraint added to a field stored objects
// may already hold is ratcheted: a warning from 1.30, an error below.
func TestCRDHeldFieldKubeVersion(t *testing.T) {
	for _, name := range []string{"preserved-field-constrained", "metadata-name-constrained"} {
		dir := filepath.Join("testdata", "crd", name)
		for version, want := range map[string]int{"1.30": ExitPass, "1.29": ExitViolation} {
			code, out, errOut := runCRD(t, "-C", dir, "--crd-base", "base.yaml", "--crd-revision", "revision.yaml", "--kube-version", version)
			if code != want || !strings.Contains(out, CRDRuleFieldAddedHeld) {
				t.Errorf("%s at %s: exit %d, want %d\n%s%s", name, version, code, want, out, errOut)
			}
		}
	}
}

// TestCRDConversionCoverage: the edges of the conversion rules the table
// cases do not show. A webhook CRD without the modelgen annotation (a
// hand-written webhook) says nothing of what it converts: None → Webhook
// stays crd-conversion-strategy-changed and no version is uncovered;
// Webhook → None between identical versions is a strategy change, not
// crd-conversion-dropped; a version the base already left uncovered is
// not reported again; a version added while the conversion stays None is
// crd-version-added.
func TestCRDConversionCoverage(t *testing.T) {
	root := func(field string) *apiext.CustomResourceValidation {
		spec := apiext.JSONSchemaProps{Type: "object", Properties: map[string]apiext.JSONSchemaProps{field: {Type: "string"}}}
		return &apiext.CustomResourceValidation{OpenAPIV3Schema: &apiext.JSONSchemaProps{Type: "object", Properties: map[string]apiext.JSONSchemaProps{"spec": spec}}}
	}
	// crd: versions as name=field (the storage version first), conversion
	// Webhook when covers is not "-" (annotated unless covers is "")
	crd := func(covers string, versions ...string) *apiext.CustomResourceDefinition {
		c := &apiext.CustomResourceDefinition{}
		c.Name = "widgets.example.com"
		if covers != "-" {
			c.Spec.Conversion = &apiext.CustomResourceConversion{Strategy: apiext.WebhookConverter}
			if covers != "" {
				c.Annotations = map[string]string{modelconv.VersionsAnnotation: covers}
			}
		}
		for i, v := range versions {
			name, field, _ := strings.Cut(v, "=")
			c.Spec.Versions = append(c.Spec.Versions, apiext.CustomResourceDefinitionVersion{Name: name, Served: true, Storage: i == 0, Schema: root(field)})
		}
		return c
	}
	for _, c := range []struct {
		name      string
		base, rev *apiext.CustomResourceDefinition
		want      []string
	}{
		{"hand-written webhook added", crd("-", "v1=a"), crd("", "v1=a", "v2=b"),
			[]string{"crd-conversion-strategy-changed", "crd-version-added-converted v2"}},
		{"annotated webhook added, a version uncovered", crd("-", "v1=a"), crd("v1", "v1=a", "v2=b"),
			[]string{"crd-conversion-strategy-changed", "crd-version-added-converted v2", "crd-conversion-version-uncovered v2"}},
		{"webhook dropped between identical versions", crd("v1,v2", "v1=a", "v2=a"), crd("-", "v1=a", "v2=a"),
			[]string{"crd-conversion-strategy-changed"}},
		{"uncovered in the base already", crd("v1", "v1=a", "v2=b"), crd("v1", "v1=a", "v2=b"), nil},
		{"uncovered once the annotation narrows", crd("v1,v2", "v1=a", "v2=b"), crd("v1", "v1=a", "v2=b"),
			[]string{"crd-conversion-version-uncovered v2"}},
		{"version added with None", crd("-", "v1=a"), crd("-", "v1=a", "v2=a"), []string{"crd-version-added v2"}},
	} {
		d := &crdDiffer{maxPairs: 1000, ratchets: true}
		d.compareCRD(c.base, c.rev)
		var got []string
		for _, ch := range d.changes {
			got = append(got, strings.TrimSpace(ch.ID+" "+ch.Version))
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}

// TestCRDPatches: --crd-patches applies kubebuilder's webhook_in_<plural>.yaml
// (spec.conversion and the versions annotation) to the revision's CRD, and
// by default the same path at the base's git ref to the base (none there:
// the base is judged as given). Without the flag the CRD of
// config/crd/bases converts with None and its new version prunes.
func TestCRDPatches(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := t.TempDir()
	gitIn := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(to string, data []byte) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(repo, to)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(repo, to), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	side := func(name string) []byte {
		data, err := os.ReadFile(filepath.Join("testdata", "crd", "conversion-webhook-dropped", name))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	// the base: v1 alone; the revision: v1 and v2 (v2 lacks spec.b), with
	// the webhook only in the patch
	base := side("revision.yaml")
	base = base[:bytes.Index(base, []byte("  - name: v2"))]
	gitIn("init", "-q")
	write("config/crd/bases/widgets.yaml", base)
	gitIn("add", "-A")
	gitIn("commit", "-qm", "base")
	gitIn("tag", "v1.0.0")
	write("config/crd/bases/widgets.yaml", side("revision.yaml"))
	write("config/crd/patches/webhook_in_widgets.yaml", []byte(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  annotations:
    conversion.modelgen.io/versions: v1,v2
  name: widgets.conversion-webhook-dropped.gate.modelgen.io
spec:
  conversion:
    strategy: Webhook
    webhook:
      clientConfig:
        service: {name: webhook-service, namespace: system, path: /convert}
      conversionReviewVersions: [v1]
`))
	args := []string{"-C", repo, "--crd-base", "git:v1.0.0:config/crd/bases", "--crd-revision", "config/crd/bases"}
	code, out, errOut := runCRD(t, args...)
	if code != ExitViolation || !strings.Contains(out, "crd-conversion-none-prunes") {
		t.Errorf("without patches: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = runCRD(t, append(args, "--crd-patches", "config/crd/patches")...)
	if code != ExitPass || !strings.Contains(out, "crd-conversion-webhook-added") || !strings.Contains(out, "crd-version-added-converted") {
		t.Errorf("with patches: exit %d\n%s%s", code, out, errOut)
	}
	// the base's ref has the patch too: no strategy change any more
	gitIn("add", "-A")
	gitIn("commit", "-qm", "v2")
	gitIn("tag", "v1.1.0")
	args[3] = "git:v1.1.0:config/crd/bases"
	code, out, errOut = runCRD(t, append(args, "--crd-patches", "config/crd/patches")...)
	if code != ExitPass || strings.Contains(out, "crd-conversion") {
		t.Errorf("patched on both sides: exit %d\n%s%s", code, out, errOut)
	}
}
