package rbac_test

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	rbacv1 "k8s.io/api/rbac/v1"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"sigs.k8s.io/yaml"

	"github.com/modelgen/modelgen/gen"
	rbacgen "github.com/modelgen/modelgen/gen/rbac"
	"github.com/modelgen/modelgen/internal/testkit"
	"github.com/modelgen/modelgen/model"
	"github.com/modelgen/modelgen/openapi"
	"github.com/modelgen/modelgen/openapi/ext"
)

// load loads packages that may raise only the expected diagnostics (see
// onlyDiagnostics): warnings count.
func load(t *testing.T, dir string, expected []string, patterns ...string) *model.Model {
	t.Helper()
	m, err := model.Load(model.Config{Dir: dir, Patterns: patterns})
	if err != nil {
		t.Fatal(err)
	}
	onlyDiagnostics(t, m.Diags, expected...)
	return m
}

// onlyDiagnostics fails the test for every diagnostic (warnings included)
// whose message contains none of expected, and for every expected message
// no diagnostic says.
func onlyDiagnostics(t *testing.T, ds model.Diagnostics, expected ...string) {
	t.Helper()
	said := map[string]bool{}
	for _, d := range ds {
		ok := false
		for _, e := range expected {
			if strings.Contains(d.Msg, e) {
				ok, said[e] = true, true
			}
		}
		if !ok {
			t.Errorf("unexpected diagnostic: %s", d)
		}
	}
	for _, e := range expected {
		if !said[e] {
			t.Errorf("no diagnostic says %q", e)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
}

// examplesWarnings are what the examples raise: the currency's runtime-only
// keywords, which their webhooks enforce.
var examplesWarnings = []string{
	`validate: "uppercase" is enforced by the validator at run time only`,
	`validate: "iso4217" is enforced by the validator at run time only`,
}

// generate runs the backend as the CLI does: the model's diagnostics (where
// Load reports the access rules' mistakes) and the backend's.
func generate(m *model.Model, cfg gen.Config) ([]gen.File, model.Diagnostics) {
	configs := map[string]gen.Config{}
	for _, pk := range m.Packages {
		configs[pk.Path] = cfg
	}
	return gen.Run(m, configs, []gen.Generator{rbacgen.Generator{}})
}

// loadAny loads packages whose diagnostics the test judges.
func loadAny(t *testing.T, dir string, patterns ...string) *model.Model {
	t.Helper()
	m, err := model.Load(model.Config{Dir: dir, Patterns: patterns})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

var defaults = gen.Config{Title: "t", Version: "0.1.0", OpenAPI: "openapi.yaml", RBACDir: "config/rbac"}

// wantRE finds an expectation: `// want` expects a diagnostic on its own
// line, `// want-next` (for a marker line, which cannot carry a second
// comment) on the line after it.
var wantRE = regexp.MustCompile("// want(-next)? `([^`]*)`")

// TestDiagnostics checks that every mistake in testdata is reported on the
// line that carries its `// want` comment, and that nothing else is: an
// unexpected diagnostic, in the file or outside it, fails the test.
func TestDiagnostics(t *testing.T) {
	for _, dir := range []string{"errors", "norole", "compare"} {
		t.Run(dir, func(t *testing.T) {
			m := loadAny(t, "", "./testdata/"+dir)
			_, diags := generate(m, defaults)
			file, _ := filepath.Abs(filepath.Join("testdata", dir, "types.go"))
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			wants := map[int]*regexp.Regexp{}
			for i, line := range strings.Split(string(src), "\n") {
				if m := wantRE.FindStringSubmatch(line); m != nil {
					at := i + 1
					if m[1] != "" {
						at++
					}
					wants[at] = regexp.MustCompile(m[2])
				}
			}
			matched := map[int]bool{}
			for _, d := range diags {
				if re := wants[d.Pos.Line]; d.Pos.File == file && re != nil && re.MatchString(d.Msg) {
					matched[d.Pos.Line] = true
					continue
				}
				t.Errorf("unexpected: %s", d)
			}
			for line, re := range wants {
				if !matched[line] {
					t.Errorf("%s:%d: no diagnostic matching %q; got:\n%s", file, line, re, diags)
				}
			}
		})
	}
}

// TestPositions checks columns: a mistake inside a tag or a marker points at
// its first byte.
func TestPositions(t *testing.T) {
	m := loadAny(t, "", "./testdata/errors")
	_, diags := generate(m, defaults)
	file, _ := filepath.Abs("testdata/errors/types.go")
	src, _ := os.ReadFile(file)
	lines := strings.Split(string(src), "\n")
	for _, tt := range []struct {
		msg, line, at string
	}{
		{`invalid role name "Admin"`, `+modelgen:access:default="read=*,write=Admin"`, `Admin`},
		{`tenant is a field's tag, not a default`, `+modelgen:access:default=tenant`, `tenant`},
		{`empty role name`, `access:"read=a||b"`, `|b"`},
		{`unknown clause "reed"`, `access:"reed=x"`, `reed`},
	} {
		var lineNo, col int
		for i, l := range lines {
			if j := strings.Index(l, tt.line); j >= 0 {
				lineNo, col = i+1, j+strings.Index(tt.line, tt.at)+1
				break
			}
		}
		found := false
		for _, d := range diags {
			if strings.Contains(d.Msg, tt.msg) {
				found = true
				if d.Pos.File != file || d.Pos.Line != lineNo || d.Pos.Col != col {
					t.Errorf("%q at %s, want line %d col %d", tt.msg, d.Pos, lineNo, col)
				}
			}
		}
		if !found {
			t.Errorf("no diagnostic %q", tt.msg)
		}
	}
}

// TestGeneratedTestTypesAreCurrent regenerates the rbac package's test
// types and compares with the checked-in file, twice (output is
// deterministic); -update rewrites the file.
func TestGeneratedTestTypesAreCurrent(t *testing.T) {
	m := load(t, "", nil, "../../rbac/internal/testtypes")
	var first []byte
	for range 2 {
		files, diags := generate(m, defaults)
		onlyDiagnostics(t, diags)
		f := only(t, files, rbacgen.FileName)
		if first != nil && !bytes.Equal(first, f.Data) {
			t.Fatal("two runs differ")
		}
		first = f.Data
		if testkit.Update() {
			if err := os.WriteFile(f.Path, f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		onDisk, err := os.ReadFile(f.Path)
		if err != nil || !bytes.Equal(onDisk, f.Data) {
			t.Fatalf("%s is stale: run ./hack/update.sh (or go test ./gen/rbac -run TestGeneratedTestTypesAreCurrent -update)", f.Path)
		}
		if !bytes.HasPrefix(f.Data, []byte("// Code generated by modelgen. DO NOT EDIT.\n")) {
			t.Fatal("missing header")
		}
	}
}

func only(t *testing.T, files []gen.File, base string) gen.File {
	t.Helper()
	for _, f := range files {
		if filepath.Base(f.Path) == base {
			return f
		}
	}
	t.Fatalf("no %s among %d files", base, len(files))
	return gen.File{}
}

func examples(t *testing.T) *model.Model {
	return load(t, "../../examples", examplesWarnings, "./payments/...", "./sla/...")
}

// TestClusterRoles checks the verbs each example role gets.
func TestClusterRoles(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the examples module, half a minute (-short)")
	}
	files, diags := generate(examples(t), defaults)
	onlyDiagnostics(t, diags, examplesWarnings...)
	want := map[string]map[string][]string{
		"payments.example.com_operator_role.yaml": {
			"paymentorders":        {"get", "list", "watch"},
			"paymentorders/status": {"get", "update", "patch"},
		},
		"payments.example.com_tenant-admin_role.yaml": {
			"paymentorders":        {"get", "list", "watch", "create", "update", "patch"},
			"paymentorders/status": {"get"},
		},
		"payments.example.com_auditor_role.yaml": {
			"paymentorders":        {"get", "list", "watch"},
			"paymentorders/status": {"get"},
		},
		"sla.example.com_customer-admin_role.yaml": {
			"slacontracts":        {"get", "list", "watch", "create", "update", "patch"},
			"slacontracts/status": {"get"},
		},
	}
	for name, rules := range want {
		f := only(t, files, name)
		if rel, _ := filepath.Rel(filepath.Join("..", "..", "examples", "config", "rbac"), f.Path); strings.Contains(rel, "..") {
			t.Errorf("%s is not under examples/config/rbac", f.Path)
		}
		var cr rbacv1.ClusterRole
		if err := yaml.UnmarshalStrict(f.Data, &cr); err != nil {
			t.Fatal(err)
		}
		got := map[string][]string{}
		for _, r := range cr.Rules {
			got[r.Resources[0]] = r.Verbs
		}
		for res, verbs := range rules {
			if !slices.Equal(got[res], verbs) {
				t.Errorf("%s: %s: verbs %v, want %v", name, res, got[res], verbs)
			}
		}
		if len(got) != len(rules) {
			t.Errorf("%s: rules %v, want %v", name, got, rules)
		}
	}
}

// TestRoleViews checks that a role's OpenAPI view holds only what it may
// read and the operations its verbs allow, and that views are opt-in.
func TestRoleViews(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the examples module, half a minute (-short)")
	}
	m := examples(t)
	files, diags := generate(m, defaults)
	onlyDiagnostics(t, diags, examplesWarnings...)
	for _, f := range files {
		if strings.Contains(filepath.Base(f.Path), "openapi.") {
			t.Fatalf("a view without roleViews: %s", f.Path)
		}
	}
	cfg := defaults
	cfg.RoleViews = true
	files, diags = generate(m, cfg)
	onlyDiagnostics(t, diags, examplesWarnings...)
	view := func(name string) *openapi3.T {
		f := only(t, files, name)
		doc, err := openapi3.NewLoader().LoadFromData(f.Data)
		if err != nil {
			t.Fatal(err)
		}
		return doc
	}
	props := func(doc *openapi3.T, schema string) []string {
		return sortedKeys(doc.Components.Schemas[schema].Value.Properties)
	}
	auditor := view("openapi.auditor.yaml")
	if got, want := props(auditor, "PaymentOrderSpec"), []string{"amount", "currency", "method", "payeeId", "payerId", "refund", "tags", "tenantId"}; !slices.Equal(got, want) {
		t.Errorf("auditor sees %v, want %v", got, want)
	}
	admin := view("openapi.tenant-admin.yaml")
	if got := props(admin, "PaymentOrderSpec"); len(got) != 13 {
		t.Errorf("tenant-admin sees %v", got)
	}
	for path, item := range auditor.Paths.Map() {
		if item.Post != nil || item.Put != nil || item.Patch != nil || item.Delete != nil {
			t.Errorf("the auditor view keeps a write on %s", path)
		}
	}
	// the auditor cannot see cardLast4: the rule that reads it is not in
	// its view, the others are; no view keeps a rule on a hidden property
	var kept []string
	for _, r := range auditor.Components.Schemas["PaymentOrderSpec"].Value.Extensions["x-kubernetes-validations"].([]any) {
		kept = append(kept, r.(map[string]any)["rule"].(string))
	}
	if len(kept) != 2 || slices.ContainsFunc(kept, func(r string) bool { return strings.Contains(r, "cardLast4") }) {
		t.Errorf("the auditor's PaymentOrderSpec keeps the rules %q, want the two that read no hidden property", kept)
	}
	for _, f := range files {
		if strings.Contains(filepath.Base(f.Path), "openapi.") {
			rulesReadOnlyVisible(t, filepath.Base(f.Path), view(filepath.Base(f.Path)))
		}
	}
	operator := view("openapi.operator.yaml")
	status := operator.Paths.Find("/apis/payments.example.com/v1alpha1/namespaces/{namespace}/paymentorders/{name}/status")
	if status == nil || status.Put == nil || status.Patch == nil {
		t.Errorf("the operator view lost the status writes")
	}
}

func sortedKeys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// TestAccessExtensions checks the values the OpenAPI document carries as
// x-modelgen-access, written from the resolved model.
func TestAccessExtensions(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the examples module, half a minute (-short)")
	}
	m := examples(t)
	const pkg = "github.com/modelgen/modelgen/examples/payments/api/v1alpha1"
	field := func(typ, goName string) *model.Field {
		for _, tt := range m.SortedTypes() {
			if tt.Pkg.Path == pkg && tt.Name == typ {
				return tt.Field(goName)
			}
		}
		t.Fatalf("no %s.%s", typ, goName)
		return nil
	}
	v, ok := openapi.Extensions(field("PaymentOrderSpec", "PayerID"))[ext.AccessName]
	if !ok {
		t.Fatal("no extension on PaymentOrderSpec.payerId")
	}
	js, _ := yaml.Marshal(v)
	if got, want := string(js), "read:\n- auditor\n- tenant-admin\nversion: 1\nwrite:\n- tenant-admin\n"; got != want {
		t.Errorf("payerId: %s, want %s", got, want)
	}
	if _, ok := openapi.Extensions(field("PaymentOrder", "Status"))[ext.AccessName]; !ok {
		t.Error("no extension on PaymentOrder.status")
	}
}

var selection = regexp.MustCompile(`\b(?:self|oldSelf|value\(\))\.([A-Za-z_][A-Za-z0-9_]*)(\(?)`)

// rulesReadOnlyVisible checks that every property a component's CEL rules
// read directly is a property of the component in that view.
func rulesReadOnlyVisible(t *testing.T, name string, doc *openapi3.T) {
	t.Helper()
	for component, ref := range doc.Components.Schemas {
		rules, _ := ref.Value.Extensions["x-kubernetes-validations"].([]any)
		for _, r := range rules {
			rule := r.(map[string]any)["rule"].(string)
			for _, m := range selection.FindAllStringSubmatch(rule, -1) {
				if m[2] == "(" {
					continue // a method: hasValue(), value()
				}
				prop, ok := apiservercel.Unescape(m[1])
				if !ok {
					t.Errorf("%s: %s: rule %q: %s is no escaped name", name, component, rule, m[1])
					continue
				}
				if _, seen := ref.Value.Properties[prop]; !seen && !slices.ContainsFunc(ref.Value.AllOf, func(a *openapi3.SchemaRef) bool { return a.Value != nil && a.Value.Properties[prop] != nil }) {
					t.Errorf("%s: %s: rule %q reads %s, which the view does not show", name, component, rule, prop)
				}
			}
		}
	}
}
