package v1alpha1_test

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/modelgen/modelgen/examples/payments/api/v1alpha1"
	"github.com/modelgen/modelgen/rbac"
)

// The multi-tenant scenario: acme keeps the defaults of the access tags;
// globex narrows what its auditors see. Both look at the same order.
const policyJSON = `{
  "tenants": {
    "globex": {
      "types": {
        "payments.example.com/v1alpha1.PaymentOrder": {
          "auditor": {"read": ["metadata", "spec.amount", "spec.currency", "spec.tenantId", "spec.method", "spec.priority", "status.phase"]}
        }
      }
    }
  }
}`

func order(tenant string) *v1alpha1.PaymentOrder {
	return &v1alpha1.PaymentOrder{
		TypeMeta:   metav1.TypeMeta{APIVersion: "payments.example.com/v1alpha1", Kind: "PaymentOrder"},
		ObjectMeta: metav1.ObjectMeta{Name: "po-1", Namespace: tenant},
		Spec: v1alpha1.PaymentOrderSpec{
			Amount: 120.5, Currency: "EUR", PayerID: "DE89370400440532", PayeeID: "FR76300060000112",
			TenantID: tenant, Description: "invoice 42", IdempotencyKey: "inv-42-2026", Method: "card", CardLast4: "4242",
			Tags: []string{"q3"}, Metadata: map[string]string{"crm": "7"}, Priority: 2,
		},
		Status: v1alpha1.PaymentOrderStatus{Phase: v1alpha1.PhaseAuthorized, ObservedGeneration: 1},
	}
}

// specFields lists the JSON names of the non-zero spec fields.
func specFields(s v1alpha1.PaymentOrderSpec) []string {
	var out []string
	v := reflect.ValueOf(s)
	for i := range v.NumField() {
		if !v.Field(i).IsZero() {
			out = append(out, strings.Split(v.Type().Field(i).Tag.Get("json"), ",")[0])
		}
	}
	return out
}

func guard(t testing.TB) *rbac.Guard[v1alpha1.PaymentOrder] {
	p, err := rbac.ParsePolicy([]byte(policyJSON), v1alpha1.PaymentOrderAccess.Table())
	if err != nil {
		t.Fatal(err)
	}
	return rbac.NewGuard(rbac.NewStore(p), v1alpha1.PaymentOrderAccess)
}

func Example_twoTenants() {
	p, _ := rbac.ParsePolicy([]byte(policyJSON), v1alpha1.PaymentOrderAccess.Table())
	orders := rbac.NewGuard(rbac.NewStore(p), v1alpha1.PaymentOrderAccess)
	for _, tenant := range []string{"acme", "globex"} {
		po := order(tenant)
		before := len(specFields(po.Spec))
		if err := orders.Filter(rbac.Subject{Tenant: tenant, Roles: []string{"auditor"}}, po); err != nil {
			panic(err)
		}
		fmt.Printf("%s auditor: %d spec fields -> %d %v\n", tenant, before, len(specFields(po.Spec)), specFields(po.Spec))
	}
	// Output:
	// acme auditor: 12 spec fields -> 7 [amount currency payerId payeeId tenantId method tags]
	// globex auditor: 12 spec fields -> 5 [amount currency tenantId method priority]
}

func TestTenantIsolation(t *testing.T) {
	orders := guard(t)
	po := order("acme")
	err := orders.Filter(rbac.Subject{Tenant: "globex", Roles: []string{"tenant-admin"}}, po)
	var te *rbac.TenantError
	if !errors.As(err, &te) || !reflect.DeepEqual(*po, v1alpha1.PaymentOrder{}) {
		t.Fatalf("globex read an acme order: %v", err)
	}
	if err := orders.Filter(rbac.Subject{Roles: []string{"tenant-admin"}}, order("acme")); !errors.As(err, &te) {
		t.Fatalf("a subject without tenant read an order: %v", err)
	}
	po = order("acme")
	if err := orders.Filter(rbac.Subject{Tenant: "acme", Roles: []string{"intern"}}, po); err != nil || !reflect.DeepEqual(*po, v1alpha1.PaymentOrder{}) {
		t.Fatalf("an unknown role saw %+v (%v)", *po, err)
	}
}

func TestWrites(t *testing.T) {
	orders := guard(t)
	for _, tt := range []struct {
		role   string
		change func(*v1alpha1.PaymentOrder)
		denied []string
	}{
		{"auditor", func(po *v1alpha1.PaymentOrder) { po.Spec.Amount = 1 }, []string{"spec.amount"}},
		{"operator", func(po *v1alpha1.PaymentOrder) { po.Spec.Amount = 1; po.Status.Phase = v1alpha1.PhaseProcessed }, []string{"spec.amount"}},
		{"operator", func(po *v1alpha1.PaymentOrder) { po.Status.Phase = v1alpha1.PhaseProcessed }, nil},
		{"tenant-admin", func(po *v1alpha1.PaymentOrder) { po.Spec.PayerID = "DE00000000000000" }, nil},
		{"tenant-admin", func(po *v1alpha1.PaymentOrder) {
			po.Status.Conditions = []metav1.Condition{{Type: "Ready", Status: metav1.ConditionTrue}}
		}, []string{"status.conditions"}},
		{"tenant-admin", func(po *v1alpha1.PaymentOrder) { po.Labels = map[string]string{"a": "b"} }, nil},
		{"operator", func(po *v1alpha1.PaymentOrder) { po.Labels = map[string]string{"a": "b"} }, []string{"metadata"}},
	} {
		old, cur := order("acme"), order("acme")
		tt.change(cur)
		subj := rbac.Subject{Tenant: "acme", Roles: []string{tt.role}}
		err := orders.CheckWrite(subj, old, cur)
		var we *rbac.WriteError
		switch {
		case tt.denied == nil && err != nil:
			t.Errorf("%s: allowed change rejected: %v", tt.role, err)
		case tt.denied != nil && (!errors.As(err, &we) || !reflect.DeepEqual(we.Paths, tt.denied)):
			t.Errorf("%s: got %v, want a rejection of %v", tt.role, err, tt.denied)
		}
		if _, err := orders.StripWrite(subj, old, cur); err != nil {
			t.Fatal(err)
		}
		if err := orders.CheckWrite(subj, old, cur); err != nil {
			t.Errorf("%s: after StripWrite: %v", tt.role, err)
		}
	}
	// moving an order to another tenant is a tenancy error, not a write
	old, cur := order("acme"), order("acme")
	cur.Spec.TenantID = "globex"
	var te *rbac.TenantError
	if err := orders.CheckWrite(rbac.Subject{Tenant: "acme", Roles: []string{"tenant-admin"}}, old, cur); !errors.As(err, &te) {
		t.Errorf("moving an order across tenants: %v", err)
	}
}

func BenchmarkFilterPaymentOrder(b *testing.B) {
	orders := guard(b)
	subj := rbac.Subject{Tenant: "acme", Roles: []string{"auditor"}}
	po := order("acme")
	b.ReportAllocs()
	for b.Loop() {
		_ = orders.Filter(subj, po)
	}
}

// TestNestedStructsFollowTheirContainer: the fields of RefundRequest and
// GatewayReference follow the rules of the field that holds them (their
// types' access defaults): the tenant admin, who writes the spec, requests
// a refund with its reason, and the operator, who writes the status,
// records the gateway's identifiers; every role that reads the spec or the
// status reads them, and no other role writes them.
func TestNestedStructsFollowTheirContainer(t *testing.T) {
	orders := guard(t)
	refund := func(po *v1alpha1.PaymentOrder) { po.Spec.Refund = &v1alpha1.RefundRequest{Reason: "returned"} }
	gateway := func(po *v1alpha1.PaymentOrder) {
		po.Status.Gateway = &v1alpha1.GatewayReference{AuthorizationID: "auth-1", ChargeID: "ch-1", RefundID: "re-1"}
	}
	for _, tt := range []struct {
		role   string
		change func(*v1alpha1.PaymentOrder)
		denied []string
	}{
		{"tenant-admin", refund, nil},
		{"operator", gateway, nil},
		{"operator", refund, []string{"spec.refund"}},
		{"tenant-admin", gateway, []string{"status.gateway"}},
	} {
		old, cur := order("acme"), order("acme")
		tt.change(cur)
		err := orders.CheckWrite(rbac.Subject{Tenant: "acme", Roles: []string{tt.role}}, old, cur)
		var we *rbac.WriteError
		switch {
		case tt.denied == nil && err != nil:
			t.Errorf("%s: allowed change rejected: %v", tt.role, err)
		case tt.denied != nil && (!errors.As(err, &we) || !reflect.DeepEqual(we.Paths, tt.denied)):
			t.Errorf("%s: got %v, want a rejection of %v", tt.role, err, tt.denied)
		}
	}
	for _, role := range []string{"tenant-admin", "auditor", "operator"} {
		po := order("acme")
		refund(po)
		gateway(po)
		if err := orders.Filter(rbac.Subject{Tenant: "acme", Roles: []string{role}}, po); err != nil {
			t.Fatal(err)
		}
		if po.Spec.Refund == nil || po.Spec.Refund.Reason != "returned" {
			t.Errorf("%s does not read the refund's reason: %+v", role, po.Spec.Refund)
		}
		if g := po.Status.Gateway; g == nil || g.AuthorizationID != "auth-1" || g.ChargeID != "ch-1" || g.RefundID != "re-1" {
			t.Errorf("%s does not read the gateway's identifiers: %+v", role, g)
		}
	}
}
