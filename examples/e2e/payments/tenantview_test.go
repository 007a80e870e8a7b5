//go:build envtest

package payments_test

import (
	"encoding/json"

	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"

	v1alpha1 "github.com/modelgen/modelgen/examples/payments/api/v1alpha1"
	"github.com/modelgen/modelgen/examples/payments/gateway"
	"github.com/modelgen/modelgen/examples/payments/tenantview"

	"github.com/modelgen/modelgen/internal/testkit"
)

// view asks the tenant view as tenant with roles; it returns the status
// code, the orders and the raw body.
func view(t *testing.T, addr, tenant, roles string) (int, []v1alpha1.PaymentOrder, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, "http://"+addr+tenantview.Path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if tenant != "" {
		req.Header.Set("X-Tenant", tenant)
	}
	req.Header.Set("X-Roles", roles)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var list v1alpha1.PaymentOrderList
	if resp.StatusCode == http.StatusOK {
		if err := json.Unmarshal(body, &list); err != nil {
			t.Fatalf("%s: %v", body, err)
		}
	}
	slices.SortFunc(list.Items, func(a, b v1alpha1.PaymentOrder) int { return strings.Compare(a.Name, b.Name) })
	return resp.StatusCode, list.Items, string(body)
}

// TestTenantViewPrunesPerRole: the tenant view lists the caller's orders
// from the informer cache, each pruned by the generated filter to what the
// caller's roles may read; another tenant's orders never appear.
func TestTenantViewPrunesPerRole(t *testing.T) {
	ns := namespace(t)
	o := testOptions(ns)
	o.TenantViewAddr = "127.0.0.1:0"
	addrc := make(chan string, 1)
	o.OnTenantViewListening = func(a net.Addr) { addrc <- a.String() }
	startOperator(t, o, newGW(gateway.Config{}))
	addr := <-addrc

	for _, tenant := range []string{"acme", "acme", "globex"} {
		po := order(ns, "", tenant)
		po.GenerateName = tenant + "-"
		po.Spec.Method, po.Spec.CardLast4 = "card", "4242"
		po.Spec.Metadata = map[string]string{"crm": "7"}
		create(t, po)
	}
	testkit.Eventually(t, "the cache to hold the three orders", func() (bool, string) {
		code, items, body := view(t, addr, "acme", "tenant-admin")
		code2, items2, body2 := view(t, addr, "globex", "tenant-admin")
		return code == 200 && len(items) == 2 && code2 == 200 && len(items2) == 1, body + body2
	})

	// tenant-admin reads everything of its tenant
	_, items, _ := view(t, addr, "acme", "tenant-admin")
	for _, po := range items {
		s := po.Spec
		if !strings.HasPrefix(po.Name, "acme-") || s.PayerID == "" || s.Description == "" || s.CardLast4 == "" || s.Metadata["crm"] != "7" || s.TenantID != "acme" {
			t.Errorf("tenant-admin sees %s %+v", po.Name, s)
		}
	}
	// auditor: payer and payee, not the description, the card or metadata
	_, items, _ = view(t, addr, "acme", "auditor")
	for _, po := range items {
		s := po.Spec
		if po.Name == "" || s.PayerID == "" || s.PayeeID == "" || s.Amount != 120.5 || s.Description != "" || s.CardLast4 != "" || s.Metadata != nil || s.IdempotencyKey != "" {
			t.Errorf("auditor sees %s %+v", po.Name, s)
		}
	}
	if len(items) != 2 {
		t.Errorf("auditor sees %d orders, want 2", len(items))
	}
	// operator: description and metadata, not the payer or the card
	_, items, _ = view(t, addr, "acme", "operator")
	for _, po := range items {
		s := po.Spec
		if s.PayerID != "" || s.CardLast4 != "" || s.Description == "" || s.Metadata["crm"] != "7" {
			t.Errorf("operator sees %s %+v", po.Name, s)
		}
	}
	// an unknown role sees nothing of the orders
	_, items, _ = view(t, addr, "acme", "intern")
	for _, po := range items {
		if po.Name != "" || po.Spec.Amount != 0 || po.Status.Phase != "" {
			t.Errorf("an unknown role sees %+v", po)
		}
	}
	// globex sees its one order and nothing of acme's
	code, items, body := view(t, addr, "globex", "tenant-admin,auditor")
	if code != 200 || len(items) != 1 || !strings.HasPrefix(items[0].Name, "globex-") || strings.Contains(body, "acme") {
		t.Errorf("globex: %d %s", code, body)
	}
	// a tenant with no orders sees none; no tenant at all is refused
	if code, items, body := view(t, addr, "initech", "tenant-admin"); code != 200 || len(items) != 0 {
		t.Errorf("initech: %d %s", code, body)
	}
	if code, _, body := view(t, addr, "", "tenant-admin"); code != http.StatusUnauthorized {
		t.Errorf("no tenant: %d %s", code, body)
	}
}
