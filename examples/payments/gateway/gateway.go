// Package gateway is the seam between the PaymentOrder operator and a
// payment service provider: an interface a real gateway client implements,
// and Simulated, an in-process gateway that is deterministic, slow and
// unreliable on request.
//
// # Idempotency
//
// Every Request carries a Key. A gateway applies a key's effect at most
// once and answers every later call with the same key as it answered the
// first successful one. The operator derives its keys from the order's UID,
// the step and the attempt, so a retried or duplicated reconcile, or a call
// whose reply was lost, never charges twice.
//
// # Errors
//
// A *Declined error is the provider's considered "no": retrying the same
// call cannot help. Every other error (a deadline, a refused connection, a
// 5xx) is transient: the same call, with the same key, may succeed later.
package gateway

import (
	"context"
	"errors"
	"fmt"
)

// Request is one call to the gateway.
type Request struct {
	// Key makes the call idempotent.
	Key string
	// Reference is the payer's own reference for the order.
	Reference string
	// Amount is in minor units of Currency (cents for EUR).
	Amount   int64
	Currency string
	Payer    string
	Payee    string
	// ID names what the call acts on: the authorization for Capture and
	// Void, the charge for Settle and Refund.
	ID string
	// AuthorizeKey, for Void without an ID, names the authorization by the
	// key it was requested with (its reply may have been lost).
	AuthorizeKey string
}

// Gateway is a payment service provider.
type Gateway interface {
	// Authorize holds Amount on the payer's account; it returns the
	// authorization's ID.
	Authorize(ctx context.Context, r Request) (string, error)
	// Capture charges the authorization r.ID; it returns the charge's ID.
	Capture(ctx context.Context, r Request) (string, error)
	// Settle waits for the clearing of charge r.ID. A *Declined error means
	// the clearing bounced it: the charge is reversed and the payment may
	// start again with a new authorization.
	Settle(ctx context.Context, r Request) error
	// Refund pays charge r.ID back; it returns the refund's ID.
	Refund(ctx context.Context, r Request) (string, error)
	// Void releases an authorization that was not captured (r.ID, or the
	// one requested with r.AuthorizeKey). Releasing nothing is no error.
	Void(ctx context.Context, r Request) error
}

// Declined is the gateway's final answer to a call.
type Declined struct {
	Code    string
	Message string
}

func (e *Declined) Error() string { return fmt.Sprintf("declined (%s): %s", e.Code, e.Message) }

// IsDeclined reports whether err is, or wraps, a *Declined.
func IsDeclined(err error) bool {
	var d *Declined
	return errors.As(err, &d)
}
