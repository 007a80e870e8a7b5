// Package tenantview serves a tenant's PaymentOrders over HTTP, each one
// pruned by the rbac filter generated from the access tags to what the
// caller's roles may read. It reads from the operator's informer cache, so
// a request costs the API server nothing.
//
// Who the caller is comes from an Authenticator. HeaderAuthenticator trusts
// two request headers, which is right only behind a proxy that sets them
// after authenticating the caller; a real deployment plugs in its own
// (a TokenReview, an OIDC token, a client certificate).
package tenantview

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"strings"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"

	v1alpha1 "github.com/modelgen/modelgen/examples/payments/api/v1alpha1"
	"github.com/modelgen/modelgen/rbac"
)

// Path is where the view is served.
const Path = "/apis/tenant/v1/paymentorders"

// TenantField indexes the cache by spec.tenantId.
const TenantField = "spec.tenantId"

// IndexTenant adds the TenantField index to the cache.
func IndexTenant(ctx context.Context, ix client.FieldIndexer) error {
	return ix.IndexField(ctx, &v1alpha1.PaymentOrder{}, TenantField, func(o client.Object) []string {
		return []string{o.(*v1alpha1.PaymentOrder).Spec.TenantID}
	})
}

// Authenticator says who sent a request.
type Authenticator interface {
	Authenticate(r *http.Request) (rbac.Subject, error)
}

// HeaderAuthenticator reads the tenant and the comma-separated roles from
// two headers (X-Tenant and X-Roles when empty).
type HeaderAuthenticator struct {
	TenantHeader, RolesHeader string
}

// Authenticate implements Authenticator.
func (h HeaderAuthenticator) Authenticate(r *http.Request) (rbac.Subject, error) {
	th, rh := cmpOr(h.TenantHeader, "X-Tenant"), cmpOr(h.RolesHeader, "X-Roles")
	s := rbac.Subject{Tenant: strings.TrimSpace(r.Header.Get(th))}
	if s.Tenant == "" {
		return s, errors.New("no " + th + " header")
	}
	for _, role := range strings.Split(r.Header.Get(rh), ",") {
		if role = strings.TrimSpace(role); role != "" {
			s.Roles = append(s.Roles, role)
		}
	}
	return s, nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// Handler lists the caller's PaymentOrders.
type Handler struct {
	Reader client.Reader // the manager's cache, with the TenantField index
	Guard  *rbac.Guard[v1alpha1.PaymentOrder]
	Auth   Authenticator
}

// ServeHTTP answers GET with a PaymentOrderList of the caller's tenant,
// every item pruned for the caller's roles; ?namespace= narrows it.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	subject, err := h.Auth.Authenticate(r)
	if err != nil {
		http.Error(w, err.Error(), http.StatusUnauthorized)
		return
	}
	opts := []client.ListOption{client.MatchingFields{TenantField: subject.Tenant}}
	if ns := r.URL.Query().Get("namespace"); ns != "" {
		opts = append(opts, client.InNamespace(ns))
	}
	var list v1alpha1.PaymentOrderList
	if err := h.Reader.List(r.Context(), &list, opts...); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	// FilterList checks every item's tenant again and prunes what the
	// roles may not read; on any denial it zeroes the whole list.
	if err := h.Guard.FilterList(subject, list.Items); err != nil {
		http.Error(w, err.Error(), http.StatusForbidden)
		return
	}
	list.APIVersion, list.Kind = v1alpha1.GroupVersion.String(), "PaymentOrderList"
	list.ResourceVersion, list.Continue = "", ""
	w.Header().Set("Content-Type", "application/json")
	if err := json.NewEncoder(w).Encode(&list); err != nil {
		log.FromContext(r.Context()).Error(err, "writing the tenant view")
	}
}

// Server serves a Handler on Addr while the manager runs, on every replica
// (not only the leader). Addr "0" turns it off.
type Server struct {
	Addr    string
	Handler http.Handler
	// Listening, if set, receives the bound address once listening.
	Listening func(net.Addr)
}

// NeedLeaderElection reports false: every replica serves reads.
func (s *Server) NeedLeaderElection() bool { return false }

// Start serves until ctx ends.
func (s *Server) Start(ctx context.Context) error {
	if s.Addr == "0" || s.Addr == "" {
		return nil
	}
	ln, err := net.Listen("tcp", s.Addr)
	if err != nil {
		return err
	}
	if s.Listening != nil {
		s.Listening(ln.Addr())
	}
	mux := http.NewServeMux()
	mux.Handle(Path, s.Handler)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
