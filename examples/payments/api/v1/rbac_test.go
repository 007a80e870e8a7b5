package v1_test

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	v1 "github.com/modelgen/modelgen/examples/payments/api/v1"
	"github.com/modelgen/modelgen/rbac"
)

func order() *v1.PaymentOrder {
	return &v1.PaymentOrder{
		ObjectMeta: metav1.ObjectMeta{Name: "po-1", Namespace: "acme"},
		Spec: v1.PaymentOrderSpec{
			Amount: v1.Money{Units: 12050, Currency: "EUR"}, PayerID: "DE89370400440532", PayeeID: "FR76300060000112",
			TenantID: "acme", Method: "sepa",
		},
		Status: v1.PaymentOrderStatus{Phase: v1.PhaseSettled, ObservedGeneration: 1},
	}
}

// TestNestedStructsFollowTheirContainer: in v1 as in v1alpha1, the tenant
// admin, who writes the spec, requests a refund with its reason and may
// write the amount's units and currency; the operator, who writes the
// status, records the gateway's identifiers; the roles that read the spec
// and the status read them.
func TestNestedStructsFollowTheirContainer(t *testing.T) {
	orders := rbac.NewGuard(rbac.NewStore(nil), v1.PaymentOrderAccess)
	for _, tt := range []struct {
		role   string
		change func(*v1.PaymentOrder)
	}{
		{"tenant-admin", func(po *v1.PaymentOrder) { po.Spec.Refund = &v1.RefundRequest{Reason: "returned"} }},
		{"tenant-admin", func(po *v1.PaymentOrder) { po.Spec.Amount = v1.Money{Units: 1500, Currency: "JPY"} }},
		{"operator", func(po *v1.PaymentOrder) {
			po.Status.Gateway = &v1.GatewayReference{AuthorizationID: "auth-1", ChargeID: "ch-1", RefundID: "re-1"}
		}},
	} {
		old, cur := order(), order()
		tt.change(cur)
		subj := rbac.Subject{Tenant: "acme", Roles: []string{tt.role}}
		if err := orders.CheckWrite(subj, old, cur); err != nil {
			t.Errorf("%s: allowed change rejected: %v", tt.role, err)
		}
		if err := orders.Filter(rbac.Subject{Tenant: "acme", Roles: []string{"auditor"}}, cur); err != nil {
			t.Fatal(err)
		}
		tt.change(old)
		if cur.Spec.Refund != nil && *cur.Spec.Refund != *old.Spec.Refund || cur.Spec.Amount != old.Spec.Amount ||
			cur.Status.Gateway != nil && *cur.Status.Gateway != *old.Status.Gateway {
			t.Errorf("the auditor does not read what %s wrote: %+v %+v", tt.role, cur.Spec, cur.Status)
		}
	}
}
