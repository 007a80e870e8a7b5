//go:build envtest

package e2e

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/yaml"

	payments "github.com/modelgen/modelgen/examples/payments/api/v1alpha1"
)

// TestGeneratedClusterRoles applies every generated ClusterRole to the real
// API server, binds the PaymentOrder auditor role to a user, and checks
// that the user may read orders but not create them (read → get, list,
// watch; write → create, update, patch).
func TestGeneratedClusterRoles(t *testing.T) {
	ctx := context.Background()
	admin := newClient(t)
	files, err := filepath.Glob(filepath.Join("..", "config", "rbac", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no generated ClusterRoles: %v", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var role rbacv1.ClusterRole
		if err := yaml.UnmarshalStrict(data, &role); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if err := admin.Create(ctx, &role); err != nil {
			t.Fatalf("%s: the API server refused the ClusterRole: %v", f, err)
		}
	}
	binding := &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: "alice-auditor"},
		RoleRef:    rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: "payments.example.com:auditor"},
		Subjects:   []rbacv1.Subject{{Kind: "User", Name: "alice", APIGroup: "rbac.authorization.k8s.io"}},
	}
	if err := admin.Create(ctx, binding); err != nil {
		t.Fatal(err)
	}
	user, err := testEnv.AddUser(envtest.User{Name: "alice"}, restConfig)
	if err != nil {
		t.Fatal(err)
	}
	alice, err := client.New(user.Config(), client.Options{Scheme: newScheme(t)})
	if err != nil {
		t.Fatal(err)
	}
	var list payments.PaymentOrderList
	if err := alice.List(ctx, &list, client.InNamespace("default")); err != nil {
		t.Errorf("the auditor cannot list PaymentOrders: %v", err)
	}
	err = alice.Create(ctx, paymentOrder("po-by-auditor", 10))
	if !apierrors.IsForbidden(err) {
		t.Errorf("the auditor created a PaymentOrder: want Forbidden, got %v", err)
	}
}
