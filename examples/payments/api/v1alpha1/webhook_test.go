package v1alpha1_test

import (
	"context"
	"strings"
	"testing"

	"github.com/go-playground/validator/v10"
	admissionv1 "k8s.io/api/admission/v1"
	authenticationv1 "k8s.io/api/authentication/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	"github.com/modelgen/modelgen/examples/payments/api/v1alpha1"
	"github.com/modelgen/modelgen/rbac"
)

// These tests call the generated webhook (zz_generated.webhook.go) in
// process; examples/e2e/webhook_test.go serves it to a real API server.

func webhookOrder() *v1alpha1.PaymentOrder {
	return &v1alpha1.PaymentOrder{
		ObjectMeta: metav1.ObjectMeta{Name: "po-1", Namespace: "default"},
		Spec: v1alpha1.PaymentOrderSpec{
			Amount: 120.5, Currency: "EUR", PayerID: "DE89370400440532", PayeeID: "FR76300060000112",
			TenantID: "acme", Method: "sepa",
		},
	}
}

// causes returns the field errors of an Invalid API error as "field: message".
func causes(t *testing.T, err error) []string {
	t.Helper()
	if err == nil {
		return nil
	}
	if !apierrors.IsInvalid(err) {
		t.Fatalf("want an Invalid API error, got %T %v", err, err)
	}
	var out []string
	for _, c := range err.(apierrors.APIStatus).Status().Details.Causes {
		out = append(out, c.Field+": "+c.Message)
	}
	return out
}

func wantOne(t *testing.T, got []string, field, inMessage string) {
	t.Helper()
	if len(got) != 1 || !strings.HasPrefix(got[0], field+": ") || !strings.Contains(got[0], inMessage) {
		t.Errorf("want one error at %s saying %q, got %q", field, inMessage, got)
	}
}

// TestWebhookRuntimeOnlyChecks: the checks the CRD cannot carry are refused
// at their JSON path, with modelgen's message for the keyword.
func TestWebhookRuntimeOnlyChecks(t *testing.T) {
	w := &v1alpha1.PaymentOrderWebhook{Validate: validator.New()}
	ctx := context.Background()
	if _, err := w.ValidateCreate(ctx, webhookOrder()); err != nil {
		t.Fatalf("a valid order was refused: %v", err)
	}
	for _, c := range []struct{ currency, says string }{
		{"usd", "must satisfy: non-empty and all uppercase (uppercase)"},
		{"XXY", "must be an ISO 4217 currency code (iso4217)"},
	} {
		po := webhookOrder()
		po.Spec.Currency = c.currency
		_, err := w.ValidateCreate(ctx, po)
		wantOne(t, causes(t, err), "spec.currency", c.says)
		_, err = w.ValidateUpdate(ctx, webhookOrder(), po)
		wantOne(t, causes(t, err), "spec.currency", c.says)
	}
}

// TestWebhookPaths: list elements and map keys are reported at their JSON
// paths, not at validator's Go namespaces.
func TestWebhookPaths(t *testing.T) {
	w := &v1alpha1.PaymentOrderWebhook{}
	po := webhookOrder()
	po.Spec.Tags = []string{"ok", "not ok"}
	_, err := w.ValidateCreate(context.Background(), po)
	wantOne(t, causes(t, err), "spec.tags[1]", "(alphanum)")

	po = webhookOrder()
	po.Spec.Metadata = map[string]string{"": "x"}
	_, err = w.ValidateCreate(context.Background(), po)
	wantOne(t, causes(t, err), "spec.metadata[]", "(min=1)")

	po = webhookOrder()
	po.Spec.Currency = ""
	_, err = w.ValidateCreate(context.Background(), po)
	if got := causes(t, err); len(got) == 0 || !strings.HasPrefix(got[0], "spec.currency: ") {
		t.Errorf("a missing currency: got %q", got)
	}
}

// TestWebhookTransitions: on update the phase follows the machine, with the
// messages of the CRD's transition rules.
func TestWebhookTransitions(t *testing.T) {
	w := &v1alpha1.PaymentOrderWebhook{}
	ctx := context.Background()
	at := func(p v1alpha1.PaymentPhase) *v1alpha1.PaymentOrder {
		po := webhookOrder()
		po.Status.Phase = p
		return po
	}
	for _, c := range []struct {
		from, to v1alpha1.PaymentPhase
		says     string // "" when allowed
	}{
		{"", v1alpha1.PhaseSubmitted, ""},
		{v1alpha1.PhaseSubmitted, v1alpha1.PhaseAuthorized, ""},
		{v1alpha1.PhaseProcessed, v1alpha1.PhaseSubmitted, ""},
		{v1alpha1.PhaseSettled, v1alpha1.PhaseSettled, ""},
		{"", v1alpha1.PhaseAuthorized, "phase must start at Submitted"},
		{v1alpha1.PhaseSubmitted, v1alpha1.PhaseSettled, "phase cannot change from Submitted to Settled: the PaymentPhase state machine has no such transition"},
		{v1alpha1.PhaseSettled, "", "phase cannot be cleared once set (it was Settled)"},
	} {
		_, err := w.ValidateUpdate(ctx, at(c.from), at(c.to))
		got := causes(t, err)
		if c.says == "" && len(got) > 0 {
			t.Errorf("%q -> %q refused: %q", c.from, c.to, got)
		}
		if c.says != "" {
			wantOne(t, got, "status.phase", c.says)
		}
	}
	if _, err := w.ValidateCreate(ctx, at(v1alpha1.PhaseSettled)); err == nil {
		t.Error("a create in Settled was allowed")
	}
}

// TestWebhookAccess: with Access and Subject set, a subject may not change
// what its roles may not write.
func TestWebhookAccess(t *testing.T) {
	p, err := rbac.ParsePolicy([]byte(`{}`), v1alpha1.PaymentOrderAccess.Table())
	if err != nil {
		t.Fatal(err)
	}
	w := &v1alpha1.PaymentOrderWebhook{
		Access: rbac.NewGuard(rbac.NewStore(p), v1alpha1.PaymentOrderAccess),
		Subject: func(_ context.Context, u authenticationv1.UserInfo) (rbac.Subject, error) {
			return rbac.Subject{Tenant: "acme", Roles: u.Groups}, nil
		},
	}
	as := func(role string) context.Context {
		req := admission.Request{AdmissionRequest: admissionv1.AdmissionRequest{UserInfo: authenticationv1.UserInfo{Username: "u", Groups: []string{role}}}}
		return admission.NewContextWithRequest(context.Background(), req)
	}
	if _, err := w.ValidateCreate(as("tenant-admin"), webhookOrder()); err != nil {
		t.Errorf("a tenant-admin may create an order: %v", err)
	}
	old, cur := webhookOrder(), webhookOrder()
	cur.Spec.Amount = 99
	_, err = w.ValidateUpdate(as("auditor"), old, cur)
	got := causes(t, err)
	if len(got) != 1 || !strings.HasPrefix(got[0], "spec.amount: ") {
		t.Errorf("an auditor changing the amount: want a refusal at spec.amount, got %q", got)
	}
	if _, err := w.ValidateUpdate(context.Background(), old, cur); err == nil {
		t.Error("a request without admission context passed the access check")
	}
}

// TestWebhookTenantScopedRoles: with SubjectFor (rbac.Groups, the policy's
// groups) the webhook picks the roles a caller has in the tenant of the
// object, as the generated ValidatingAdmissionPolicy does: a support
// engineer who is a tenant-admin of acme and an auditor of globex writes
// acme's orders, not globex's, and cannot move an order from acme to
// globex; today's groups keep working.
func TestWebhookTenantScopedRoles(t *testing.T) {
	p, err := rbac.ParsePolicy([]byte(`{}`), v1alpha1.PaymentOrderAccess.Table())
	if err != nil {
		t.Fatal(err)
	}
	groups := rbac.DefaultGroups()
	w := &v1alpha1.PaymentOrderWebhook{
		Access: rbac.NewGuard(rbac.NewStore(p), v1alpha1.PaymentOrderAccess),
		SubjectFor: func(_ context.Context, u authenticationv1.UserInfo, tenant string) (rbac.Subject, error) {
			return groups.SubjectFor(u.Username, u.Groups, tenant), nil
		},
	}
	as := func(groups ...string) context.Context {
		req := admission.Request{AdmissionRequest: admissionv1.AdmissionRequest{UserInfo: authenticationv1.UserInfo{Username: "u", Groups: groups}}}
		return admission.NewContextWithRequest(context.Background(), req)
	}
	support := as("system:authenticated", "modelgen:tenant:acme:role:tenant-admin", "modelgen:tenant:globex:role:auditor")
	order := func(tenant string, amount float64) *v1alpha1.PaymentOrder {
		po := webhookOrder()
		po.Spec.TenantID, po.Spec.Amount = tenant, amount
		return po
	}
	for _, c := range []struct {
		what     string
		ctx      context.Context
		old, cur *v1alpha1.PaymentOrder
		allowed  bool
	}{
		{"support creates an acme order", support, nil, order("acme", 1), true},
		{"support changes an acme order's amount", support, order("acme", 1), order("acme", 2), true},
		{"support creates a globex order (an auditor there)", support, nil, order("globex", 1), false},
		{"support changes a globex order's amount", support, order("globex", 1), order("globex", 2), false},
		{"support moves an order from acme to globex", support, order("acme", 1), order("globex", 1), false},
		{"support moves an order from globex to acme", support, order("globex", 1), order("acme", 1), false},
		{"a tenant-admin of acme by today's groups", as("modelgen:tenant:acme", "modelgen:role:tenant-admin"), order("acme", 1), order("acme", 2), true},
		{"the same, on a globex order", as("modelgen:tenant:acme", "modelgen:role:tenant-admin"), order("globex", 1), order("globex", 2), false},
	} {
		var err error
		if c.old == nil {
			_, err = w.ValidateCreate(c.ctx, c.cur)
		} else {
			_, err = w.ValidateUpdate(c.ctx, c.old, c.cur)
		}
		if (err == nil) != c.allowed {
			t.Errorf("%s: allowed %v, want %v (%v)", c.what, err == nil, c.allowed, err)
		}
	}
	w.SubjectFor = nil
	if _, err := w.ValidateCreate(support, order("acme", 1)); err == nil {
		t.Error("Access without Subject or SubjectFor passed the access check")
	}
}
