//go:build envtest

package e2e

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	payments "github.com/modelgen/modelgen/examples/payments/api/v1alpha1"
)

// TestRoleFromMarkers applies the PaymentOrder operator's ClusterRole,
// which modelgen generates from the +kubebuilder:rbac markers of
// payments/controller (payments/config/rbac/runtime_role.yaml), and its
// binding to the operator's ServiceAccount; acting as that ServiceAccount,
// a request the markers allow (patch a PaymentOrder: the finalizer) is
// served, and one they do not (delete it) is forbidden.
func TestRoleFromMarkers(t *testing.T) {
	ctx := context.Background()
	admin := newClient(t)
	var role rbacv1.ClusterRole
	var binding rbacv1.ClusterRoleBinding
	for file, obj := range map[string]any{"runtime_role.yaml": &role, "runtime_binding.yaml": &binding} {
		data, err := os.ReadFile(filepath.Join("..", "payments", "config", "rbac", file))
		if err != nil {
			t.Fatal(err)
		}
		if err := yaml.UnmarshalStrict(data, obj); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if err := admin.Create(ctx, obj.(client.Object)); err != nil {
			t.Fatalf("%s: the API server refused it: %v", file, err)
		}
	}
	po := paymentOrder("po-role-markers", 12)
	if err := admin.Create(ctx, po); err != nil {
		t.Fatal(err)
	}
	sa := rest.CopyConfig(restConfig)
	sa.Impersonate = rest.ImpersonationConfig{UserName: "system:serviceaccount:payments-system:payments-operator",
		Groups: []string{"system:serviceaccounts", "system:serviceaccounts:payments-system", "system:authenticated"}}
	operator, err := client.New(sa, client.Options{Scheme: newScheme(t)})
	if err != nil {
		t.Fatal(err)
	}
	patch := client.RawPatch("application/merge-patch+json", []byte(`{"metadata":{"finalizers":["payments.example.com/test"]}}`))
	if err := operator.Patch(ctx, &payments.PaymentOrder{ObjectMeta: po.ObjectMeta}, patch); err != nil {
		t.Errorf("the markers grant patch on paymentorders, yet the operator may not patch one: %v", err)
	}
	if err := operator.Delete(ctx, po); !apierrors.IsForbidden(err) {
		t.Errorf("no marker grants delete on paymentorders: want Forbidden, got %v", err)
	}
}
