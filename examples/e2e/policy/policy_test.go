//go:build envtest

// Package policy_test applies the generated ValidatingAdmissionPolicy of
// PaymentOrder (examples/config/policy) to a real kube-apiserver and writes
// as impersonated users: people whose roles and tenant come from groups
// (modelgen:role:<role>, modelgen:tenant:<tenant>) and the operator's
// ServiceAccount, configured in examples/payments/api/v1alpha1/modelgen.yaml.
// No webhook runs.
package policy_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	"github.com/modelgen/modelgen/examples/e2e/internal/controlplane"
	v1alpha1 "github.com/modelgen/modelgen/examples/payments/api/v1alpha1"

	"github.com/modelgen/modelgen/internal/testkit"
)

const (
	policyDir = "../../config/policy"
	operator  = "system:serviceaccount:payments-system:payments-operator"
	ns        = "orders"
)

// policyVersions are the served versions of PaymentOrder, each with its
// generated policy and binding (paymentorders-<version>-access.payments.example.com).
var policyVersions = []string{"v1", "v1alpha1"}

var (
	restConfig *rest.Config
	admin      client.Client
	scheme     = runtime.NewScheme()
)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	var crd apiext.CustomResourceDefinition
	if err := readYAML("modelgen.io_accesspolicies.yaml", &crd); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	env, cfg, err := controlplane.Start(&crd)
	if err != nil {
		fmt.Fprintln(os.Stderr, "starting the control plane:", err)
		return 1
	}
	defer env.Stop()
	restConfig = cfg
	for _, add := range []func(*runtime.Scheme) error{clientgoscheme.AddToScheme, v1alpha1.AddToScheme} {
		if err := add(scheme); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	if admin, err = client.New(cfg, client.Options{Scheme: scheme}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := setup(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "setup:", err)
		return 1
	}
	return m.Run()
}

func readYAML(name string, into any) error {
	data, err := os.ReadFile(filepath.Join(policyDir, name))
	if err != nil {
		return err
	}
	return yaml.Unmarshal(data, into)
}

// setup lets every authenticated user use PaymentOrders as far as RBAC
// goes (the policy is what tells them apart), and applies the generated
// default AccessPolicy, the policy and its binding.
func setup(ctx context.Context) error {
	role := &rbacv1.ClusterRole{ObjectMeta: metav1.ObjectMeta{Name: "orders"}, Rules: []rbacv1.PolicyRule{{
		APIGroups: []string{v1alpha1.GroupVersion.Group}, Resources: []string{"paymentorders", "paymentorders/status"}, Verbs: []string{"*"},
	}}}
	binding := &rbacv1.ClusterRoleBinding{ObjectMeta: metav1.ObjectMeta{Name: "orders"},
		RoleRef:  rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: "orders"},
		Subjects: []rbacv1.Subject{{Kind: "Group", Name: "system:authenticated", APIGroup: "rbac.authorization.k8s.io"}}}
	objs := []client.Object{role, binding, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}}
	param := &unstructured.Unstructured{}
	if err := readYAML("modelgen.io_accesspolicy_modelgen-access.yaml", &param.Object); err != nil {
		return err
	}
	objs = append(objs, param)
	// a policy per served version, each matching the other's requests too
	// (matchPolicy Equivalent, through the conversion webhook)
	for _, version := range policyVersions {
		data, err := os.ReadFile(filepath.Join(policyDir, "payments.example.com_paymentorder_"+version+"_access.yaml"))
		if err != nil {
			return err
		}
		docs := strings.Split(string(data), "\n---\n")
		var p admissionv1.ValidatingAdmissionPolicy
		var b admissionv1.ValidatingAdmissionPolicyBinding
		if len(docs) != 2 || yaml.UnmarshalStrict([]byte(docs[0]), &p) != nil || yaml.UnmarshalStrict([]byte(docs[1]), &b) != nil {
			return fmt.Errorf("the policy file of %s does not hold a policy and a binding", version)
		}
		objs = append(objs, &p, &b)
	}
	for _, o := range objs {
		if err := admin.Create(ctx, o); err != nil {
			return fmt.Errorf("creating %T %s: %w", o, o.GetName(), err)
		}
	}
	return nil
}

// as is a client impersonating a user in groups.
func as(t *testing.T, user string, groups ...string) client.Client {
	t.Helper()
	cfg := rest.CopyConfig(restConfig)
	cfg.Impersonate = rest.ImpersonationConfig{UserName: user, Groups: groups}
	c, err := client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func person(t *testing.T, tenant string, roles ...string) client.Client {
	groups := []string{"modelgen:tenant:" + tenant}
	for _, r := range roles {
		groups = append(groups, "modelgen:role:"+r)
	}
	return as(t, tenant+"-"+strings.Join(roles, "-"), groups...)
}

func order(name, tenant string) *v1alpha1.PaymentOrder {
	return &v1alpha1.PaymentOrder{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec: v1alpha1.PaymentOrderSpec{Amount: 120.5, Currency: "EUR", PayerID: "DE89370400440532", PayeeID: "FR14200410100505",
			TenantID: tenant, Method: "sepa", Description: "invoice 42"},
	}
}

// refused expects an error naming want.
func refused(err error, want string) error {
	switch {
	case err == nil:
		return fmt.Errorf("admitted; want refused with %q", want)
	case !strings.Contains(err.Error(), want):
		return fmt.Errorf("refused with %v; want %q", err, want)
	}
	return nil
}

func TestTenantIsolationAndFieldWrites(t *testing.T) {
	ctx := context.Background()
	acmeAdmin := person(t, "acme", "tenant-admin")
	globexAdmin := person(t, "globex", "tenant-admin")
	acmeAuditor := person(t, "acme", "auditor")

	// the policy takes effect asynchronously: wait for the first refusal
	testkit.EventuallyNil(t, "a tenant-admin of globex creating an order of acme", func() error {
		return refused(globexAdmin.Create(ctx, order("cross-tenant", "acme")), "spec.tenantId is acme, the caller acts for tenant globex")
	})
	o := order("invoice-42", "acme")
	if err := acmeAdmin.Create(ctx, o); err != nil {
		t.Fatalf("a tenant-admin of acme creating an order of acme: %v", err)
	}
	// both versions' policies judge the request (the server converts it
	// for each: matchPolicy Equivalent), and whichever the server runs
	// first answers: v1alpha1's names spec.amount, v1's the Money field
	// spec.amount.units
	noRole := as(t, "nobody", "modelgen:tenant:acme").Create(ctx, order("no-role", "acme"))
	if err := refused(noRole, "may not be changed by nobody with no role"); err != nil {
		t.Errorf("a user of acme without a role creating an order: %v", err)
	} else if msg := noRole.Error(); !strings.Contains(msg, "spec.amount may not be changed") && !strings.Contains(msg, "spec.amount.units may not be changed") {
		t.Errorf("a user of acme without a role creating an order: refused with %v; want the amount named", noRole)
	}
	if err := refused(as(t, "drifter", "modelgen:role:tenant-admin").Create(ctx, order("no-tenant", "acme")), "drifter has no tenant"); err != nil {
		t.Errorf("a tenant-admin without a tenant: %v", err)
	}

	patch := func(c client.Client, sub bool, body string) error {
		p := client.RawPatch(types.MergePatchType, []byte(body))
		target := &v1alpha1.PaymentOrder{ObjectMeta: metav1.ObjectMeta{Name: o.Name, Namespace: ns}}
		if sub {
			return c.Status().Patch(ctx, target, p)
		}
		return c.Patch(ctx, target, p)
	}
	checks := []struct {
		what, want string
		c          client.Client
		status     bool
		body       string
	}{
		{"the tenant-admin of acme changes the description", "", acmeAdmin, false, `{"spec":{"description":"invoice 42, corrected"}}`},
		{"an auditor of acme changes the description", "spec.description may not be changed by acme-auditor with roles auditor (the access tags let role tenant-admin write it)", acmeAuditor, false, `{"spec":{"description":"audited"}}`},
		{"the tenant-admin of globex changes acme's order", "spec.tenantId is acme, the caller acts for tenant globex", globexAdmin, false, `{"spec":{"description":"mine now"}}`},
		{"the tenant-admin of acme moves the order to globex", "spec.tenantId is globex, the caller acts for tenant acme", acmeAdmin, false, `{"spec":{"tenantId":"globex"}}`},
		{"the tenant-admin of acme writes status", "status.lastError may not be changed by acme-tenant-admin with roles tenant-admin (the access tags let role operator write it)", acmeAdmin, true, `{"status":{"lastError":"forged"}}`},
		{"the tenant-admin of globex writes acme's status", "spec.tenantId is acme, the caller acts for tenant globex", globexAdmin, true, `{"status":{"lastError":"forged"}}`},
		{"the operator writes status", "", as(t, operator, "system:serviceaccounts", "system:serviceaccounts:payments-system"), true, `{"status":{"lastError":"gateway timeout","attempts":1}}`},
		{"the operator changes the description", "spec.description may not be changed by " + operator + " with roles operator", as(t, operator, "system:serviceaccounts"), false, `{"spec":{"description":"operator edit"}}`},
	}
	for _, c := range checks {
		err := patch(c.c, c.status, c.body)
		if c.want == "" {
			if err != nil {
				t.Errorf("%s: refused: %v", c.what, err)
			}
			continue
		}
		if e := refused(err, c.want); e != nil {
			t.Errorf("%s: %v", c.what, e)
		}
	}
	var got v1alpha1.PaymentOrder
	if err := admin.Get(ctx, client.ObjectKeyFromObject(o), &got); err != nil {
		t.Fatal(err)
	}
	if got.Spec.Description != "invoice 42, corrected" || got.Status.LastError != "gateway timeout" || got.Spec.TenantID != "acme" {
		t.Errorf("stored: description %q, lastError %q, tenant %q", got.Spec.Description, got.Status.LastError, got.Spec.TenantID)
	}

	// a tenant override through the AccessPolicy, no regeneration: acme's
	// auditors may now write the description
	param := &unstructured.Unstructured{}
	param.SetAPIVersion("modelgen.io/v1alpha1")
	param.SetKind("AccessPolicy")
	param.SetName("modelgen-access")
	// (an override names each served version's type: each version's
	// policy judges every request, converted to its version)
	override := `{"spec":{"tenants":{"acme":{"types":{` +
		`"payments.example.com/v1alpha1.PaymentOrder":{"auditor":{"read":["*"],"write":["spec.description"]}},` +
		`"payments.example.com/v1.PaymentOrder":{"auditor":{"read":["*"],"write":["spec.description"]}}}}}}}`
	if err := admin.Patch(ctx, param, client.RawPatch(types.MergePatchType, []byte(override))); err != nil {
		t.Fatal(err)
	}
	testkit.EventuallyNil(t, "an auditor of acme changing the description after the override", func() error {
		return patch(acmeAuditor, false, `{"spec":{"description":"audited"}}`)
	})
	if err := refused(patch(acmeAuditor, false, `{"spec":{"priority":3}}`), "spec.priority may not be changed by acme-auditor"); err != nil {
		t.Errorf("the override grants only the description: %v", err)
	}
}

// TestDeletesAreTenantScoped: a DELETE is judged by the tenant rules alone
// (docs/admission-policy.md): another tenant's admin may not delete an
// order, its own may, and a DELETECOLLECTION in a namespace shared by
// tenants (the server admits each object's delete as a DELETE) leaves the
// other tenant's orders.
func TestDeletesAreTenantScoped(t *testing.T) {
	ctx := context.Background()
	acmeAdmin := person(t, "acme", "tenant-admin")
	globexAdmin := person(t, "globex", "tenant-admin")
	policyActive(t)
	if err := acmeAdmin.Create(ctx, order("delete-me", "acme")); err != nil {
		t.Fatal(err)
	}
	if err := refused(globexAdmin.Delete(ctx, order("delete-me", "acme")), "spec.tenantId is acme, the caller acts for tenant globex"); err != nil {
		t.Errorf("the tenant-admin of globex deleting acme's order: %v", err)
	}
	if err := refused(as(t, "drifter", "modelgen:role:tenant-admin").Delete(ctx, order("delete-me", "acme")), "drifter has no tenant"); err != nil {
		t.Errorf("a caller without a tenant deleting: %v", err)
	}
	if err := acmeAdmin.Delete(ctx, order("delete-me", "acme")); err != nil {
		t.Errorf("the tenant-admin of acme deleting acme's order: %v", err)
	}

	bulk := map[string]string{"batch": "shared"}
	for _, o := range []struct {
		name, tenant string
		c            client.Client
	}{{"bulk-acme-1", "acme", acmeAdmin}, {"bulk-acme-2", "acme", acmeAdmin}, {"bulk-globex-1", "globex", globexAdmin}} {
		po := order(o.name, o.tenant)
		po.Labels = bulk
		if err := o.c.Create(ctx, po); err != nil {
			t.Fatalf("creating %s: %v", o.name, err)
		}
	}
	// the server deletes object by object and stops at the first refusal;
	// whatever it deleted first, acme's orders stay
	err := globexAdmin.DeleteAllOf(ctx, &v1alpha1.PaymentOrder{}, client.InNamespace(ns), client.MatchingLabels(bulk))
	if e := refused(err, "the caller acts for tenant globex"); e != nil {
		t.Errorf("a deletecollection by globex over acme's orders: %v", e)
	}
	var left v1alpha1.PaymentOrderList
	if err := admin.List(ctx, &left, client.InNamespace(ns), client.MatchingLabels(bulk)); err != nil {
		t.Fatal(err)
	}
	acme := 0
	for _, o := range left.Items {
		if o.Spec.TenantID == "acme" && o.DeletionTimestamp == nil {
			acme++
		}
	}
	if acme != 2 {
		t.Errorf("after globex's deletecollection %d of acme's 2 orders are left", acme)
	}
}

// policyActive waits for the policy to take effect (asynchronously after
// it is created): for the first refusal.
func policyActive(t *testing.T) {
	t.Helper()
	globexAdmin := person(t, "globex", "tenant-admin")
	testkit.EventuallyNil(t, "a tenant-admin of globex creating an order of acme", func() error {
		return refused(globexAdmin.Create(context.Background(), order("cross-tenant-probe", "acme")), "spec.tenantId is acme, the caller acts for tenant globex")
	})
}

// initechClerk gives initech's clerks, through the AccessPolicy, the spec
// fields an order is created with, and not spec.priority (which has a
// schema default) nor metadata.
func initechClerk(t *testing.T) client.Client {
	t.Helper()
	policyActive(t)
	ctx := context.Background()
	param := &unstructured.Unstructured{}
	param.SetAPIVersion("modelgen.io/v1alpha1")
	param.SetKind("AccessPolicy")
	param.SetName("modelgen-access")
	// v1's amount holds v1alpha1's amount and currency
	override := `{"spec":{"tenants":{"initech":{"types":{` +
		`"payments.example.com/v1alpha1.PaymentOrder":{"clerk":{"read":["*"],"write":["spec.amount","spec.currency","spec.payerId","spec.payeeId","spec.method","spec.description"]}},` +
		`"payments.example.com/v1.PaymentOrder":{"clerk":{"read":["*"],"write":["spec.amount","spec.payerId","spec.payeeId","spec.method","spec.description"]}}}}}}}`
	if err := admin.Patch(ctx, param, client.RawPatch(types.MergePatchType, []byte(override))); err != nil {
		t.Fatal(err)
	}
	clerk := person(t, "initech", "clerk")
	base := order("initech-base", "initech")
	if err := admin.Get(ctx, client.ObjectKeyFromObject(base), &v1alpha1.PaymentOrder{}); err != nil {
		if err := admin.Create(ctx, base); err != nil {
			t.Fatal(err)
		}
	}
	testkit.EventuallyNil(t, "initech's clerk changing a description after the override", func() error {
		return clerk.Patch(ctx, base, client.RawPatch(types.MergePatchType, []byte(`{"spec":{"description":"clerk edit"}}`)))
	})
	return clerk
}

// TestServerDefaultsAreNotTheCallersWrites: the API server writes
// spec.priority's default (5) into a create that lacks it before admission;
// a clerk without a right on spec.priority can still create, and cannot
// set another priority.
func TestServerDefaultsAreNotTheCallersWrites(t *testing.T) {
	ctx := context.Background()
	clerk := initechClerk(t)
	o := order("clerk-created", "initech")
	if err := clerk.Create(ctx, o); err != nil {
		t.Fatalf("initech's clerk creating an order without a priority: %v", err)
	}
	if o.Spec.Priority != 5 {
		t.Errorf("stored priority %d: want the schema default 5 (is defaulting on?)", o.Spec.Priority)
	}
	p := order("clerk-priority", "initech")
	p.Spec.Priority = 3
	if err := refused(clerk.Create(ctx, p), "spec.priority may not be changed by initech-clerk"); err != nil {
		t.Errorf("initech's clerk creating an order with priority 3: %v", err)
	}
}

// TestKubectlApplyBookkeeping: client-side kubectl apply writes the
// last-applied-configuration annotation on every apply, Argo CD and Flux
// write tracking metadata (the payments modelgen.yaml lists their keys):
// none of it is a governed metadata write, so initech's clerk, who may write
// spec.description but not metadata, applies a description; the same apply
// changing a governed label is refused.
func TestKubectlApplyBookkeeping(t *testing.T) {
	ctx := context.Background()
	clerk := initechClerk(t)
	target := order("initech-base", "initech")
	apply := func(labels, annotations map[string]string, description string) error {
		annotations["kubectl.kubernetes.io/last-applied-configuration"] = fmt.Sprintf(`{"apiVersion":"payments.example.com/v1alpha1","kind":"PaymentOrder","spec":{"description":%q}}`, description)
		body, err := json.Marshal(map[string]any{"metadata": map[string]any{"labels": labels, "annotations": annotations}, "spec": map[string]any{"description": description}})
		if err != nil {
			t.Fatal(err)
		}
		return clerk.Patch(ctx, target, client.RawPatch(types.MergePatchType, body))
	}
	if err := apply(map[string]string{}, map[string]string{}, "applied once"); err != nil {
		t.Errorf("a kubectl apply of the description by initech's clerk: %v", err)
	}
	if err := apply(map[string]string{"kustomize.toolkit.fluxcd.io/name": "orders"}, map[string]string{"argocd.argoproj.io/tracking-id": "orders:payments.example.com/PaymentOrder:orders/initech-base"}, "applied by a tool"); err != nil {
		t.Errorf("an apply with Flux's label and Argo CD's annotation: %v", err)
	}
	if err := refused(apply(map[string]string{"team": "billing"}, map[string]string{}, "applied with a label"), "metadata may not be changed by initech-clerk"); err != nil {
		t.Errorf("an apply that also changes a governed label: %v", err)
	}
	var got v1alpha1.PaymentOrder
	if err := admin.Get(ctx, client.ObjectKeyFromObject(target), &got); err != nil {
		t.Fatal(err)
	}
	if got.Spec.Description != "applied by a tool" || got.Labels["team"] != "" {
		t.Errorf("stored: description %q, labels %v", got.Spec.Description, got.Labels)
	}
}

// TestKubectlApplyByAClerk runs kubectl itself: client-side apply creates
// the order with its last-applied annotation, applies a new description,
// and is refused an apply that adds a governed label.
func TestKubectlApplyByAClerk(t *testing.T) {
	kubectl, err := exec.LookPath("kubectl")
	if err != nil {
		if os.Getenv("MODELGEN_REQUIRE_KUBECTL") == "1" {
			t.Fatal("no kubectl on PATH, and MODELGEN_REQUIRE_KUBECTL=1 (hack/test.sh builds it beside the control plane)")
		}
		t.Skip("no kubectl on PATH (TestKubectlApplyBookkeeping sends the same patches; hack/controlplane.sh builds one)")
	}
	initechClerk(t)
	kc := kubeconfig(t, "initech-clerk", "modelgen:tenant:initech", "modelgen:role:clerk")
	apply := func(description, labels string) (string, error) {
		manifest := fmt.Sprintf(`apiVersion: payments.example.com/v1alpha1
kind: PaymentOrder
metadata:
  name: applied-order
  namespace: %s
  labels: {%s}
spec: {amount: 12.5, currency: EUR, payerId: DE89370400440532, payeeId: FR14200410100505, tenantId: initech, method: sepa, description: %q}
`, ns, labels, description)
		cmd := exec.Command(kubectl, "--kubeconfig", kc, "apply", "-f", "-")
		cmd.Stdin = strings.NewReader(manifest)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := apply("first", ""); err != nil {
		t.Fatalf("kubectl apply creating an order as initech's clerk: %v\n%s", err, out)
	}
	if out, err := apply("second", ""); err != nil {
		t.Errorf("kubectl apply of a new description as initech's clerk: %v\n%s", err, out)
	}
	out, err := apply("third", "team: billing")
	if err == nil || !strings.Contains(out, "metadata may not be changed by initech-clerk") {
		t.Errorf("kubectl apply adding a governed label: %v\n%s", err, out)
	}
	var got v1alpha1.PaymentOrder
	if err := admin.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: "applied-order"}, &got); err != nil {
		t.Fatal(err)
	}
	if got.Spec.Description != "second" || got.Annotations["kubectl.kubernetes.io/last-applied-configuration"] == "" {
		t.Errorf("stored: description %q, annotations %v", got.Spec.Description, got.Annotations)
	}
}

// kubeconfig writes a kubeconfig for the test's API server that acts as
// the user, through impersonation of the admin's credentials.
func kubeconfig(t *testing.T, user string, groups ...string) string {
	t.Helper()
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters["envtest"] = &clientcmdapi.Cluster{Server: restConfig.Host, CertificateAuthorityData: restConfig.CAData}
	cfg.AuthInfos["caller"] = &clientcmdapi.AuthInfo{
		ClientCertificateData: restConfig.CertData, ClientKeyData: restConfig.KeyData, Token: restConfig.BearerToken,
		Impersonate: user, ImpersonateGroups: groups,
	}
	cfg.Contexts["envtest"] = &clientcmdapi.Context{Cluster: "envtest", AuthInfo: "caller"}
	cfg.CurrentContext = "envtest"
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := clientcmd.WriteToFile(*cfg, path); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestBindingIsWhatEnforces: without the binding nothing is refused (the
// policy alone enforces nothing); with it back, the refusal returns. Runs
// last: it removes the binding for a while.
func TestBindingIsWhatEnforces(t *testing.T) {
	ctx := context.Background()
	var bindings []*admissionv1.ValidatingAdmissionPolicyBinding
	for _, version := range policyVersions {
		var b admissionv1.ValidatingAdmissionPolicyBinding
		if err := admin.Get(ctx, client.ObjectKey{Name: "paymentorders-" + version + "-access.payments.example.com"}, &b); err != nil {
			t.Fatal(err)
		}
		bindings = append(bindings, &b)
	}
	globexAdmin := person(t, "globex", "tenant-admin")
	testkit.EventuallyNil(t, "with the bindings, a cross-tenant create is refused", func() error {
		return refused(globexAdmin.Create(ctx, order("binding-check", "acme")), "spec.tenantId is acme")
	})
	// each policy alone refuses (matchPolicy Equivalent: the v1 policy
	// judges a v1alpha1 request converted to v1, and the other way round)
	for i, b := range bindings {
		if err := admin.Delete(ctx, b); err != nil {
			t.Fatal(err)
		}
		testkit.EventuallyNil(t, "with the binding of "+policyVersions[1-i]+" alone, a cross-tenant create is refused", func() error {
			return refused(globexAdmin.Create(ctx, order("binding-check", "acme")), "spec.tenantId is acme")
		})
		b.ResourceVersion, b.UID = "", ""
		if err := admin.Create(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	for _, b := range bindings {
		if err := admin.Delete(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	testkit.EventuallyNil(t, "without the bindings, the cross-tenant create is admitted", func() error {
		return globexAdmin.Create(ctx, order("binding-check", "acme"))
	})
	for _, b := range bindings {
		b.ResourceVersion, b.UID = "", ""
		if err := admin.Create(ctx, b); err != nil {
			t.Fatal(err)
		}
	}
	testkit.EventuallyNil(t, "with the bindings back, the cross-tenant create is refused again", func() error {
		return refused(globexAdmin.Create(ctx, order("binding-check-2", "acme")), "spec.tenantId is acme")
	})
}

// TestTenantScopedRoles: a support engineer with roles scoped to two
// tenants (groups modelgen:tenant:<tenant>:role:<role>) acts for the tenant
// of each order with the roles granted there: creates and edits in acme
// and in globex, is refused in globex what only acme's role allows, and is
// refused moving an order from one tenant to the other. A plain tenant
// group keeps its meaning beside scoped ones.
func TestTenantScopedRoles(t *testing.T) {
	ctx := context.Background()
	policyActive(t)
	sam := as(t, "sam", "modelgen:tenant:acme:role:tenant-admin", "modelgen:tenant:globex:role:tenant-admin", "modelgen:tenant:initech:role:auditor")
	for _, tenant := range []string{"acme", "globex"} {
		o := order("scoped-"+tenant, tenant)
		if err := sam.Create(ctx, o); err != nil {
			t.Fatalf("sam creating an order of %s: %v", tenant, err)
		}
		if err := sam.Patch(ctx, o, client.RawPatch(types.MergePatchType, []byte(`{"spec":{"description":"by sam"}}`))); err != nil {
			t.Errorf("sam changing the description of %s's order: %v", tenant, err)
		}
	}
	moved := client.RawPatch(types.MergePatchType, []byte(`{"spec":{"tenantId":"globex"}}`))
	if err := refused(sam.Patch(ctx, order("scoped-acme", "acme"), moved), "spec.tenantId is globex, the caller acts for tenant acme"); err != nil {
		t.Errorf("sam moving acme's order to globex: %v", err)
	}
	o := order("scoped-initech", "initech")
	if err := admin.Create(ctx, o); err != nil {
		t.Fatal(err)
	}
	if err := refused(sam.Patch(ctx, o, client.RawPatch(types.MergePatchType, []byte(`{"spec":{"description":"by sam"}}`))), "spec.description may not be changed by sam with roles auditor"); err != nil {
		t.Errorf("sam, an auditor in initech, changing initech's order: %v", err)
	}
	if err := refused(sam.Create(ctx, order("scoped-hooli", "hooli")), "sam has no tenant"); err != nil {
		t.Errorf("sam creating an order of a tenant it has no role in: %v", err)
	}
	// a tenant of its own plus a role scoped to another tenant
	mixed := as(t, "max", "modelgen:tenant:acme", "modelgen:role:tenant-admin", "modelgen:tenant:globex:role:auditor")
	if err := mixed.Patch(ctx, order("scoped-acme", "acme"), client.RawPatch(types.MergePatchType, []byte(`{"spec":{"description":"by max"}}`))); err != nil {
		t.Errorf("max, tenant-admin of acme, changing acme's order: %v", err)
	}
	if err := refused(mixed.Patch(ctx, order("scoped-globex", "globex"), client.RawPatch(types.MergePatchType, []byte(`{"spec":{"description":"by max"}}`))), "spec.description may not be changed by max with roles auditor"); err != nil {
		t.Errorf("max, an auditor in globex, changing globex's order: %v", err)
	}
}
