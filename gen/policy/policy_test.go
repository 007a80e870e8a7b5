package policy

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/cel-go/cel"
	admissionv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission/plugin/policy/validating"
	crdmarkers "sigs.k8s.io/controller-tools/pkg/crd/markers"
	"sigs.k8s.io/controller-tools/pkg/markers"
	"sigs.k8s.io/yaml"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/gen/policy/evaluate"

	"github.com/modelgen/modelgen/model"
)

// docType loads the rbac test types: Doc holds every access shape.
func docType(t *testing.T) *model.TypeAccess {
	t.Helper()
	m, err := model.Load(model.Config{Patterns: []string{"../../rbac/internal/testtypes"}})
	if err != nil {
		t.Fatal(err)
	}
	if m.Diags.HasErrors() {
		t.Fatal(m.Diags)
	}
	for _, tr := range m.Access.Sorted() {
		if tr.Type.Name == "Doc" {
			return tr
		}
	}
	t.Fatal("no Doc")
	return nil
}

func docKind(tr *model.TypeAccess) Kind {
	k := KindOf(tr)
	k.Group, k.Version, k.Plural, k.Status = "test.modelgen.io", "v1", "docs", false
	return k
}

func TestDocPolicyCompiles(t *testing.T) {
	tr := docType(t)
	data, diags := ForType(tr, docKind(tr), DefaultSettings())
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if testing.Verbose() {
		t.Log(string(data))
	}
}

// TestBindingDeniesWithItsAccessPolicy: the file holds the policy and a
// binding of it that denies (not only warns or audits) and, without its
// AccessPolicy, fails closed.
func TestBindingDeniesWithItsAccessPolicy(t *testing.T) {
	tr := docType(t)
	data, diags := ForType(tr, docKind(tr), DefaultSettings())
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	docs := strings.Split(string(data), "\n---\n")
	if len(docs) != 2 {
		t.Fatalf("want a policy and a binding, got %d documents", len(docs))
	}
	var p admissionv1.ValidatingAdmissionPolicy
	var b admissionv1.ValidatingAdmissionPolicyBinding
	if err := yaml.UnmarshalStrict([]byte(docs[0]), &p); err != nil {
		t.Fatal(err)
	}
	if err := yaml.UnmarshalStrict([]byte(docs[1]), &b); err != nil {
		t.Fatal(err)
	}
	if b.Kind != "ValidatingAdmissionPolicyBinding" || b.Spec.PolicyName != p.Name || !slices.Equal(b.Spec.ValidationActions, []admissionv1.ValidationAction{admissionv1.Deny}) {
		t.Errorf("binding %+v does not deny with policy %s", b, p.Name)
	}
	if b.Spec.ParamRef == nil || b.Spec.ParamRef.Name != DefaultParamName || *b.Spec.ParamRef.ParameterNotFoundAction != admissionv1.DenyAction {
		t.Errorf("binding's paramRef %+v: want %s, denying when it is missing", b.Spec.ParamRef, DefaultParamName)
	}
	// DELETE too: the per-object deletes of a DELETECOLLECTION come as DELETE
	ops := p.Spec.MatchConstraints.ResourceRules[0].Operations
	if !slices.Equal(ops, []admissionv1.OperationType{admissionv1.Create, admissionv1.Update, admissionv1.Delete}) {
		t.Errorf("the policy matches %v; want CREATE, UPDATE and DELETE", ops)
	}
	if *p.Spec.FailurePolicy != admissionv1.Fail || p.Spec.ParamKind.Kind != ParamKind {
		t.Errorf("policy: failurePolicy %v, paramKind %v", *p.Spec.FailurePolicy, p.Spec.ParamKind)
	}
}

// TestLosingAWriteRightChangesThePolicy: the policy is derived from the
// same rules as x-modelgen-access, so a role that loses a write right
// loses it in the policy too (the gate judges the rules).
func TestLosingAWriteRightChangesThePolicy(t *testing.T) {
	tr := docType(t)
	before, _ := ForType(tr, docKind(tr), DefaultSettings())
	for _, r := range tr.Table {
		if r.Path == "title" {
			r.Field.Write = slices.DeleteFunc(slices.Clone(r.Field.Write), func(s string) bool { return s == "editor" })
		}
	}
	after, diags := ForType(tr, docKind(tr), DefaultSettings())
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if string(before) == string(after) {
		t.Fatal("the policy did not change when editor lost the write right on title")
	}
	for _, c := range Checks(tr, DefaultSettings()) {
		if c.Path == "title" && slices.Contains(c.Static, "editor") {
			t.Errorf("title still writable by editor: %v", c.Static)
		}
	}
	p, _ := Build(docKind(tr), Checks(tr, DefaultSettings()), DefaultSettings())
	found := false
	for _, v := range p.Spec.Validations {
		if strings.HasPrefix(v.MessageExpression, `"title" + variables.refused`) {
			found = strings.Contains(v.MessageExpression, "(the access tags let role admin write it)")
		}
	}
	if !found {
		t.Error("the message of title does not follow the rule")
	}
}

// TestCompileErrorsNameTheExpression: an expression the API server's
// compiler refuses is reported with where it sits and the row it judges.
func TestCompileErrorsNameTheExpression(t *testing.T) {
	tr := docType(t)
	checks := Checks(tr, DefaultSettings())
	p, _ := Build(docKind(tr), checks, DefaultSettings())
	fields := len(p.Spec.Validations) - len(checks)
	p.Spec.Validations[fields+1].Expression = "object.title +"
	p.Spec.Variables[1].Expression = "request.nosuchfield"
	errs := CompileErrors(p, checks)
	if len(errs) != 2 {
		t.Fatalf("want 2 errors, got %v", errs)
	}
	if errs[0].Expr.Where != "variables[1] (cur)" || !strings.Contains(errs[0].Err.Error(), "nosuchfield") {
		t.Errorf("first error: %s: %v", errs[0].Expr.Where, errs[0].Err)
	}
	if errs[1].Expr.Check == nil || errs[1].Expr.Check.Path != checks[1].Path || errs[1].Expr.Check.Pos.Line == 0 {
		t.Errorf("second error does not name its row and position: %+v", errs[1].Expr)
	}
}

func TestSettingsOfRefusesMistakes(t *testing.T) {
	pk := &model.Package{Dir: "/m/api"}
	cfg := gen.Config{}.WithOwn(Options{PolicyTenantFrom: "header", PolicyServiceAccounts: "sys/op=Admin,broken", Policy: "sometimes", PolicyBookkeepingLabels: "*,ok.io/", PolicyBookkeepingAnnotations: "a b"})
	_, diags := SettingsOf(pk, cfg)
	var msgs []string
	for _, d := range diags {
		msgs = append(msgs, d.String())
	}
	got := strings.Join(msgs, "\n")
	for _, want := range []string{`"policy": "sometimes"`, `"policyTenantFrom": "header"`, `invalid role name "Admin"`, `"broken": want namespace/name=role|role`, "/m/api/modelgen.yaml:1:1", `"policyBookkeepingLabels": "*": want a label`, `"policyBookkeepingAnnotations": "a b"`} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, "ok.io/") {
		t.Errorf("a prefix refused:\n%s", got)
	}
	s, diags := SettingsOf(pk, gen.Config{}.WithOwn(Options{PolicyServiceAccounts: "payments-system/op=operator|auditor", PolicyExemptGroups: "-", PolicyBookkeepingLabels: "kustomize.toolkit.fluxcd.io/, team-*", PolicyBookkeepingAnnotations: "argocd.argoproj.io/tracking-id"}))
	if diags.HasErrors() || len(s.ExemptGroups) != 0 || s.ServiceAccounts[0].User != "system:serviceaccount:payments-system:op" || len(s.ServiceAccounts[0].Roles) != 2 ||
		!slices.Equal(s.BookkeepingLabels, []string{"kustomize.toolkit.fluxcd.io/", "team-*"}) || !slices.Equal(s.BookkeepingAnnotations, []string{"argocd.argoproj.io/tracking-id"}) {
		t.Errorf("settings %+v, %v", s, diags)
	}
}

// TestTenantSources: the tenant from a user extra, or from the namespace.
func TestTenantSources(t *testing.T) {
	tr := docType(t)
	obj := func(tenant string) *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]any{"tenant": tenant, "title": "x"}}
	}
	param := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "modelgen.io/v1alpha1", "kind": "AccessPolicy", "metadata": map[string]any{"name": "modelgen-access"}, "spec": map[string]any{}}}
	k := docKind(tr)
	gvr := schema.GroupVersionResource{Group: k.Group, Version: k.Version, Resource: k.Plural}
	for _, c := range []struct {
		from    string
		user    evaluate.UserInfo
		ns      string
		tenant  string
		allowed bool
	}{
		{TenantFromExtra, evaluate.UserInfo{Name: "a", Groups: []string{"modelgen:role:editor"}, Extra: map[string][]string{"modelgen.io/tenant": {"t1"}}}, "x", "t1", true},
		{TenantFromExtra, evaluate.UserInfo{Name: "a", Groups: []string{"modelgen:role:editor"}, Extra: map[string][]string{"modelgen.io/tenant": {"t1"}}}, "x", "t2", false},
		{TenantFromExtra, evaluate.UserInfo{Name: "a", Groups: []string{"modelgen:role:editor", "modelgen:tenant:t1"}}, "x", "t1", false},
		{TenantFromNamespace, evaluate.UserInfo{Name: "a", Groups: []string{"modelgen:role:editor"}}, "t1", "t1", true},
		{TenantFromNamespace, evaluate.UserInfo{Name: "a", Groups: []string{"modelgen:role:editor"}}, "t1", "t2", false},
	} {
		s := DefaultSettings()
		s.TenantFrom = c.from
		p, _ := Build(k, Checks(tr, DefaultSettings()), s)
		if errs := CompileErrors(p, Checks(tr, DefaultSettings())); len(errs) > 0 {
			t.Fatal(errs)
		}
		v, err := evaluate.NewEvaluator(p)
		if err != nil {
			t.Fatal(err)
		}
		got := evaluate.Evaluate(v, evaluate.Request{New: obj(c.tenant), Resource: gvr, Namespace: c.ns, User: c.user, Params: param})
		if got.Allowed != c.allowed {
			t.Errorf("%s, namespace %s, object of %s: allowed %v, want %v %v", c.from, c.ns, c.tenant, got.Allowed, c.allowed, got.Messages)
		}
	}
}

// TestAccessorsAreThePlugins: the expressions CompileErrors hands the
// plugin's compiler carry the return types the plugin's own types give
// them, so the policy is compiled as the API server compiles it.
func TestAccessorsAreThePlugins(t *testing.T) {
	for _, c := range []struct {
		ours, theirs interface{ ReturnTypes() []*cel.Type }
	}{
		{&variable{}, &validating.Variable{}},
		{&condition{}, &validating.ValidationCondition{}},
		{&message{}, &validating.MessageExpressionCondition{}},
	} {
		if got, want := fmt.Sprint(c.ours.ReturnTypes()), fmt.Sprint(c.theirs.ReturnTypes()); got != want {
			t.Errorf("%T returns %s; the plugin's %T returns %s", c.ours, got, c.theirs, want)
		}
	}
}

// TestServerDefaultsAreNotWrites: the API server writes a field's schema
// default into a request that lacks it before admission; that value is
// not the caller's write, on CREATE (the old object is empty) and on
// UPDATE (the old object lacks the field), while any other value, or the
// default over a value the old object held, is.
func TestServerDefaultsAreNotWrites(t *testing.T) {
	tr := docType(t)
	for _, r := range tr.Table {
		switch r.Path {
		case "secret":
			r.Field.Field.Markers = markers.MarkerValues{"kubebuilder:default": {crdmarkers.Default{Value: "s3"}}}
		case "tags":
			r.Field.Field.Markers = markers.MarkerValues{"default": {crdmarkers.KubernetesDefault{Value: []any{"a", "b"}}}}
		}
	}
	k := docKind(tr)
	p, _ := Build(k, Checks(tr, DefaultSettings()), DefaultSettings())
	if errs := CompileErrors(p, Checks(tr, DefaultSettings())); len(errs) > 0 {
		t.Fatal(errs)
	}
	v, err := evaluate.NewEvaluator(p)
	if err != nil {
		t.Fatal(err)
	}
	param := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "modelgen.io/v1alpha1", "kind": "AccessPolicy", "metadata": map[string]any{"name": "modelgen-access"}, "spec": map[string]any{}}}
	gvr := schema.GroupVersionResource{Group: k.Group, Version: k.Version, Resource: k.Plural}
	viewer := evaluate.UserInfo{Name: "vi", Groups: []string{"modelgen:role:viewer", "modelgen:tenant:t1"}}
	doc := func(kv ...any) *unstructured.Unstructured {
		m := map[string]any{"tenant": "t1"}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return &unstructured.Unstructured{Object: m}
	}
	for _, c := range []struct {
		what     string
		old, cur *unstructured.Unstructured
		allowed  bool
	}{
		{"create with the defaulted secret", nil, doc("secret", "s3"), true},
		{"create with another secret", nil, doc("secret", "x"), false},
		{"create with the defaulted tags", nil, doc("tags", []any{"a", "b"}), true},
		{"create with other tags", nil, doc("tags", []any{"a"}), false},
		{"update defaulting a secret the old object lacked", doc(), doc("secret", "s3"), true},
		{"update setting the default over another secret", doc("secret", "a"), doc("secret", "s3"), false},
		{"update defaulting tags the old object lacked", doc(), doc("tags", []any{"a", "b"}), true},
	} {
		r := evaluate.Request{New: c.cur, Resource: gvr, Namespace: "x", User: viewer, Params: param}
		if c.old != nil {
			r.Old = c.old
		}
		if got := evaluate.Evaluate(v, r); got.Allowed != c.allowed {
			t.Errorf("%s by a viewer (no write right): allowed %v, want %v %v", c.what, got.Allowed, c.allowed, got.Messages)
		}
	}
}

// metaTypes loads testdata/meta: kinds with ObjectMeta.
func metaTypes(t *testing.T) map[string]*model.TypeAccess {
	t.Helper()
	m, err := model.Load(model.Config{Patterns: []string{"./testdata/meta"}})
	if err != nil {
		t.Fatal(err)
	}
	if m.Diags.HasErrors() {
		t.Fatal(m.Diags)
	}
	out := map[string]*model.TypeAccess{}
	for _, tr := range m.Access.Sorted() {
		out[tr.Type.Name] = tr
	}
	return out
}

// TestBookkeepingMetadataIsNotGoverned: kubectl's last-applied annotation
// and the configured bookkeeping keys (exact keys and prefixes) may change
// with a field the caller may write; any other label or annotation is
// still a metadata write.
func TestBookkeepingMetadataIsNotGoverned(t *testing.T) {
	tr := metaTypes(t)["Thing"]
	if tr == nil {
		t.Fatal("no Thing")
	}
	s := DefaultSettings()
	s.BookkeepingAnnotations = []string{"argocd.argoproj.io/"}
	s.BookkeepingLabels = []string{"kustomize.toolkit.fluxcd.io/", "tool.example.com/run-*", "owner-tool"}
	k := KindOf(tr)
	k.Group, k.Version, k.Plural = "meta.test.modelgen.io", "v1", "things"
	checks := Checks(tr, s)
	p, _ := Build(k, checks, s)
	if errs := CompileErrors(p, checks); len(errs) > 0 {
		t.Fatal(errs)
	}
	v, err := evaluate.NewEvaluator(p)
	if err != nil {
		t.Fatal(err)
	}
	param := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "modelgen.io/v1alpha1", "kind": "AccessPolicy", "metadata": map[string]any{"name": "modelgen-access"}, "spec": map[string]any{}}}
	gvr := schema.GroupVersionResource{Group: k.Group, Version: k.Version, Resource: k.Plural}
	clerk := evaluate.UserInfo{Name: "cl", Groups: []string{"modelgen:role:clerk", "modelgen:tenant:t1"}}
	thing := func(note string, labels, annotations map[string]any) *unstructured.Unstructured {
		md := map[string]any{"name": "a", "namespace": "x"}
		if labels != nil {
			md["labels"] = labels
		}
		if annotations != nil {
			md["annotations"] = annotations
		}
		return &unstructured.Unstructured{Object: map[string]any{"metadata": md, "spec": map[string]any{"tenant": "t1", "note": note}}}
	}
	old := thing("a", map[string]any{"team": "x"}, map[string]any{LastApplied: "{}"})
	for _, c := range []struct {
		what                string
		labels, annotations map[string]any
		allowed             bool
	}{
		{"kubectl apply: last-applied changes", map[string]any{"team": "x"}, map[string]any{LastApplied: `{"spec":{"note":"b"}}`}, true},
		{"Argo CD's tracking annotation added", map[string]any{"team": "x"}, map[string]any{LastApplied: "{}", "argocd.argoproj.io/tracking-id": "app:g/k:ns/n"}, true},
		{"Flux's labels, an exact key and a * prefix", map[string]any{"team": "x", "kustomize.toolkit.fluxcd.io/name": "apps", "owner-tool": "y", "tool.example.com/run-id": "7"}, map[string]any{LastApplied: "{}"}, true},
		{"last-applied removed", map[string]any{"team": "x"}, nil, true},
		{"a governed label changes", map[string]any{"team": "y"}, map[string]any{LastApplied: `{"spec":{"note":"b"}}`}, false},
		{"a governed label removed", nil, map[string]any{LastApplied: "{}"}, false},
		{"a label only like a bookkeeping key", map[string]any{"team": "x", "owner-tool2": "y"}, map[string]any{LastApplied: "{}"}, false},
		{"a governed annotation added", map[string]any{"team": "x"}, map[string]any{LastApplied: "{}", "note": "n"}, false},
	} {
		r := evaluate.Request{Old: old, New: thing("b", c.labels, c.annotations), Resource: gvr, Namespace: "x", User: clerk, Params: param}
		if got := evaluate.Evaluate(v, r); got.Allowed != c.allowed {
			t.Errorf("%s with a note change, by a clerk: allowed %v, want %v %v", c.what, got.Allowed, c.allowed, got.Messages)
		}
	}
}

// TestTenantFromNamespaceNeedsANamespacedKind: a cluster-scoped kind has
// no namespace to take the tenant from; the policy would refuse every
// write, so it is an error at the type.
func TestTenantFromNamespaceNeedsANamespacedKind(t *testing.T) {
	types := metaTypes(t)
	s := DefaultSettings()
	s.TenantFrom = TenantFromNamespace
	tr := types["Global"]
	data, diags := ForType(tr, KindOf(tr), s)
	if data != nil || !diags.HasErrors() {
		t.Fatalf("a cluster-scoped kind with policyTenantFrom namespace: written, diagnostics %v", diags)
	}
	var msgs []string
	for _, d := range diags {
		msgs = append(msgs, d.String())
	}
	got := strings.Join(msgs, "\n")
	if !strings.Contains(got, "types.go:") || !strings.Contains(got, "policyTenantFrom") || !strings.Contains(got, "cluster-scoped") {
		t.Errorf("the error does not name the setting and the type's position: %s", got)
	}
	if _, diags := ForType(types["Thing"], KindOf(types["Thing"]), s); diags.HasErrors() {
		t.Errorf("a namespaced kind: %v", diags)
	}
}

// TestAKindInTwoVersionsGetsAPolicyPerVersion: access tags on one kind in
// two API versions give two policies, in files that name their version,
// not one file two packages would write.
func TestAKindInTwoVersionsGetsAPolicyPerVersion(t *testing.T) {
	m, err := model.Load(model.Config{Patterns: []string{"./testdata/twoversions/..."}})
	if err != nil {
		t.Fatal(err)
	}
	if m.Diags.HasErrors() {
		t.Fatal(m.Diags)
	}
	files, diags := Generator{}.Generate(&gen.Context{Model: m, Configs: map[string]gen.Config{}})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	var names []string
	for _, f := range files {
		names = append(names, filepath.Base(f.Path))
	}
	slices.Sort(names)
	want := []string{"modelgen.io_accesspolicies.yaml", "modelgen.io_accesspolicy_modelgen-access.yaml", "two.test.modelgen.io_widget_v1_access.yaml", "two.test.modelgen.io_widget_v1alpha1_access.yaml"}
	if strings.Join(names, " ") != strings.Join(want, " ") {
		t.Errorf("files %v, want %v", names, want)
	}
	if d := gen.Duplicates(m, files); len(d) > 0 {
		t.Errorf("duplicates: %v", d)
	}
}

// TestOnePolicyDirectoryHasOneParamName: two packages whose policies
// share a policy directory but name different AccessPolicies are an
// error at the second one's modelgen.yaml (its bindings would read an
// AccessPolicy no file creates, denying every request); with the same
// name both read the one the directory's files create.
func TestOnePolicyDirectoryHasOneParamName(t *testing.T) {
	m, err := model.Load(model.Config{Patterns: []string{"./testdata/twoversions/..."}})
	if err != nil {
		t.Fatal(err)
	}
	if m.Diags.HasErrors() {
		t.Fatal(m.Diags)
	}
	configs := func(second string) map[string]gen.Config {
		out := map[string]gen.Config{}
		for _, pk := range m.Packages {
			cfg := gen.DefaultConfig(pk)
			if strings.HasSuffix(pk.Path, "/v1alpha1") {
				cfg = cfg.WithOwn(Options{PolicyDir: DefaultDir, PolicyParamName: second})
			}
			out[pk.Path] = cfg
		}
		return out
	}
	files, diags := Generator{}.Generate(&gen.Context{Model: m, Configs: configs("other-access")})
	if !diags.HasErrors() || files != nil {
		t.Fatalf("two AccessPolicy names in one directory: files %d, diagnostics %v; want an error and no files", len(files), diags)
	}
	msg := diags.Error()
	if !strings.Contains(msg, filepath.Join("twoversions", "v1alpha1", "modelgen.yaml")+":1:1") || !strings.Contains(msg, `"other-access"`) || !strings.Contains(msg, `"modelgen-access"`) {
		t.Errorf("the error does not name the package's settings and both names: %s", msg)
	}
	if _, diags := (Generator{}).Generate(&gen.Context{Model: m, Configs: configs(DefaultParamName)}); diags.HasErrors() {
		t.Errorf("one name: %v", diags)
	}
}
