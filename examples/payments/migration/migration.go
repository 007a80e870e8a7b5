// Package migration moves the stored objects of a custom resource to its
// storage version after the storage version changed (docs/conversion.md,
// "Storage migration"): it rewrites every object through the storage
// version, so that etcd holds each one in that version, then trims the
// CRD's status.storedVersions to it. Only then may the old version stop
// being served and be removed.
//
// It does what the API server's own StorageVersionMigration does
// (storagemigration.k8s.io), which is alpha since Kubernetes 1.30 and off
// by default (the StorageVersionMigrator feature gate and the API group
// must both be turned on), so an operator cannot count on it: the
// PaymentOrder operator runs Migrate at start with --migrate-storage
// (Runnable), and Migrate is idempotent.
package migration

import (
	"context"
	"fmt"
	"slices"
	"time"

	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"
)

// The operator reads the CRD and trims its stored versions, and rewrites
// its objects.
// +kubebuilder:rbac:groups=apiextensions.k8s.io,resources=customresourcedefinitions,resourceNames=paymentorders.payments.example.com,verbs=get
// +kubebuilder:rbac:groups=apiextensions.k8s.io,resources=customresourcedefinitions/status,resourceNames=paymentorders.payments.example.com,verbs=update
// +kubebuilder:rbac:groups=payments.example.com,resources=paymentorders,verbs=list;update

// PageSize is how many objects Migrate lists at a time.
const PageSize = 500

// Result says what Migrate did.
type Result struct {
	// Storage is the CRD's storage version.
	Storage string
	// Rewritten counts the objects written back through Storage.
	Rewritten int
	// Trimmed are the versions removed from status.storedVersions.
	Trimmed []string
}

// Migrate rewrites every object of the CRD named crd (plural.group) through
// its storage version, then trims status.storedVersions to that version.
// A CRD whose storedVersions already is the storage version alone is left
// as it is. An object that cannot be rewritten (its conversion fails, or it
// no longer passes validation) stops the migration with the object's name
// and the server's error, and storedVersions stays as it was.
func Migrate(ctx context.Context, c client.Client, crd string) (Result, error) {
	var def apiext.CustomResourceDefinition
	if err := c.Get(ctx, client.ObjectKey{Name: crd}, &def); err != nil {
		return Result{}, fmt.Errorf("migrating %s: %w", crd, err)
	}
	res := Result{Storage: storageVersion(&def)}
	if res.Storage == "" {
		return res, fmt.Errorf("migrating %s: the CRD has no storage version", crd)
	}
	if slices.Equal(def.Status.StoredVersions, []string{res.Storage}) {
		return res, nil
	}
	gvk := schema.GroupVersionKind{Group: def.Spec.Group, Version: res.Storage, Kind: def.Spec.Names.Kind}
	n, err := rewriteAll(ctx, c, gvk)
	res.Rewritten = n
	if err != nil {
		return res, fmt.Errorf("migrating %s to %s: %w", crd, res.Storage, err)
	}
	err = retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := c.Get(ctx, client.ObjectKey{Name: crd}, &def); err != nil {
			return err
		}
		if storageVersion(&def) != res.Storage {
			return fmt.Errorf("the storage version changed from %s to %s during the migration", res.Storage, storageVersion(&def))
		}
		res.Trimmed = slices.DeleteFunc(slices.Clone(def.Status.StoredVersions), func(v string) bool { return v == res.Storage })
		def.Status.StoredVersions = []string{res.Storage}
		return c.Status().Update(ctx, &def)
	})
	if err != nil {
		return res, fmt.Errorf("migrating %s: trimming status.storedVersions to %s: %w", crd, res.Storage, err)
	}
	return res, nil
}

func storageVersion(crd *apiext.CustomResourceDefinition) string {
	for _, v := range crd.Spec.Versions {
		if v.Storage {
			return v.Name
		}
	}
	return ""
}

// rewriteAll writes every object of gvk back unchanged, page by page: the
// API server encodes it in the storage version, and the bytes differ from
// what etcd holds in an older version, so it is stored again.
func rewriteAll(ctx context.Context, c client.Client, gvk schema.GroupVersionKind) (int, error) {
	n := 0
	cont := ""
	for {
		list := &unstructured.UnstructuredList{}
		list.SetGroupVersionKind(gvk.GroupVersion().WithKind(gvk.Kind + "List"))
		if err := c.List(ctx, list, client.Limit(PageSize), client.Continue(cont)); err != nil {
			return n, fmt.Errorf("listing: %w", err)
		}
		for i := range list.Items {
			if err := rewrite(ctx, c, &list.Items[i]); err != nil {
				return n, fmt.Errorf("rewriting %s: %w", client.ObjectKeyFromObject(&list.Items[i]), err)
			}
			n++
		}
		if cont = list.GetContinue(); cont == "" {
			return n, nil
		}
	}
}

// rewrite writes obj back; on a conflict it reads the object again (a newer
// write is stored in the storage version already, but writing it again is
// harmless). An object deleted meanwhile needs nothing.
func rewrite(ctx context.Context, c client.Client, obj *unstructured.Unstructured) error {
	first := true
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if !first {
			if err := c.Get(ctx, client.ObjectKeyFromObject(obj), obj); err != nil {
				return err
			}
		}
		first = false
		return c.Update(ctx, obj)
	})
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}

// Runnable runs Migrate once when the manager starts (as the leader),
// retrying every RetryPeriod while it fails (the conversion webhook this
// very process serves may not be listening yet), at most Attempts times;
// then its error stops the manager.
type Runnable struct {
	Client      client.Client
	CRD         string
	Attempts    int           // default 10
	RetryPeriod time.Duration // default 2s
	// Done, if set, gets the result of the migration that succeeded.
	Done func(Result)
}

// NeedLeaderElection is true: one replica migrates.
func (r *Runnable) NeedLeaderElection() bool { return true }

// Start migrates, then returns (nil once the migration succeeded).
func (r *Runnable) Start(ctx context.Context) error {
	attempts, period := r.Attempts, r.RetryPeriod
	if attempts <= 0 {
		attempts = 10
	}
	if period <= 0 {
		period = 2 * time.Second
	}
	logger := log.FromContext(ctx).WithName("storage-migration").WithValues("crd", r.CRD)
	var last error
	for i := range attempts {
		res, err := Migrate(ctx, r.Client, r.CRD)
		if err == nil {
			logger.Info("stored objects migrated", "storageVersion", res.Storage, "rewritten", res.Rewritten, "trimmed", res.Trimmed)
			if r.Done != nil {
				r.Done(res)
			}
			return nil
		}
		last = err
		logger.Error(err, "storage migration failed", "attempt", i+1, "of", attempts)
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(period):
		}
	}
	return fmt.Errorf("after %d attempts: %w", attempts, last)
}
