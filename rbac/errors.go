package rbac

import (
	"errors"
	"strings"
)

// ErrDenied is what every denial wraps: errors.Is(err, rbac.ErrDenied).
var ErrDenied = errors.New("rbac: denied")

// TenantError denies a subject access to an object because of tenancy: the
// subject has no tenant, the object belongs to another tenant, or the
// policy does not list the subject's tenant.
type TenantError struct {
	Type    string // the table's name
	Subject string // the subject's tenant
	Object  string // the object's tenant key ("" when not read)
	Reason  string
}

func (e *TenantError) Error() string {
	return "rbac: " + e.Type + ": " + e.Reason
}

// Unwrap makes errors.Is(err, ErrDenied) hold.
func (e *TenantError) Unwrap() error { return ErrDenied }

// WriteError rejects a write: Paths are the JSON paths of the fields the
// subject changed but may not write, sorted.
type WriteError struct {
	Type  string
	Paths []string
}

func (e *WriteError) Error() string {
	return "rbac: " + e.Type + ": may not change " + strings.Join(e.Paths, ", ")
}

// Unwrap makes errors.Is(err, ErrDenied) hold.
func (e *WriteError) Unwrap() error { return ErrDenied }

// ErrInvalid is what a call with a nil object, a nil guard or a guard
// without a store or type returns, wrapped: errors.Is(err, ErrInvalid).
// Such an error denies too (errors.Is(err, ErrDenied)), so that code that
// only checks for denials fails closed.
var ErrInvalid = errors.New("rbac: invalid argument")

// InvalidError reports a call the guard cannot judge.
type InvalidError struct {
	Op     string // Filter, CheckWrite...
	Reason string
}

func (e *InvalidError) Error() string { return "rbac: " + e.Op + ": " + e.Reason }

// Unwrap makes errors.Is(err, ErrInvalid) and errors.Is(err, ErrDenied) hold.
func (e *InvalidError) Unwrap() []error { return []error{ErrInvalid, ErrDenied} }

func noTenant(table string) *TenantError {
	return &TenantError{Type: table, Reason: "subject has no tenant"}
}

func otherTenant(table, subject, object string) *TenantError {
	return &TenantError{Type: table, Subject: subject, Object: object,
		Reason: "object of tenant " + quote(object) + " denied to a subject of tenant " + quote(subject)}
}

func unlistedTenant(table, subject string) *TenantError {
	return &TenantError{Type: table, Subject: subject, Reason: "tenant " + quote(subject) + " is not in the policy"}
}

func quote(s string) string { return "\"" + s + "\"" }
