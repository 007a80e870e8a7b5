//go:build envtest

package payments_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func validSpec() map[string]any {
	return map[string]any{
		"amount": 120.5, "currency": "EUR", "payerId": "DE89370400440532", "payeeId": "FR14200410100505",
		"tenantId": "acme", "method": "sepa",
	}
}

func unstructuredOrder(ns string, spec map[string]any) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "payments.example.com/v1alpha1", "kind": "PaymentOrder",
		"metadata": map[string]any{"generateName": "order-", "namespace": ns},
		"spec":     spec,
	}}
}

// causeFields returns the fields an Invalid error blames.
func causeFields(err error) []string {
	var se *apierrors.StatusError
	if !errors.As(err, &se) || se.ErrStatus.Details == nil {
		return nil
	}
	var fields []string
	for _, c := range se.ErrStatus.Details.Causes {
		fields = append(fields, c.Field)
	}
	return fields
}

// wantInvalid checks that err is Invalid and blames field, and no other
// field (the server adds causes without a field: "some validation rules
// were not checked", and anyOf failures, whose message names the field).
func wantInvalid(t *testing.T, what string, err error, field, msg string) {
	t.Helper()
	fields := slices.DeleteFunc(causeFields(err), func(f string) bool { return f == "" || f == "<nil>" })
	if !apierrors.IsInvalid(err) || len(fields) == 0 || slices.ContainsFunc(fields, func(f string) bool { return f != field }) {
		t.Errorf("%s: want Invalid blaming %s only, got fields %v: %v", what, field, fields, err)
		return
	}
	if !strings.Contains(err.Error(), msg) {
		t.Errorf("%s: want a message with %q, got %v", what, msg, err)
	}
}

// TestSpecRulesRefused: each rule of the spec's validate tags and markers,
// violated on its own, is refused by the API server, which names the field.
// Objects get generated names, so no name can contain a field's name.
func TestSpecRulesRefused(t *testing.T) {
	ns := namespace(t)
	ctx := context.Background()
	if err := k8s.Create(ctx, unstructuredOrder(ns, validSpec())); err != nil {
		t.Fatalf("a valid order was refused: %v", err)
	}
	for _, c := range []struct {
		name, field, msg string
		set              map[string]any
		drop             string
	}{
		{"amount below 0.01", "spec.amount", "0.01", map[string]any{"amount": 0.001}, ""},
		{"amount 0 (an integral JSON number)", "spec.amount", "zero", map[string]any{"amount": int64(0)}, ""},
		{"amount above the limit", "spec.amount", "1e+06", map[string]any{"amount": 1000000.5}, ""},
		{"amount missing", "spec.amount", "Required", nil, "amount"},
		{"currency of four letters", "spec.currency", "", map[string]any{"currency": "EURO"}, ""},
		{"currency with a digit", "spec.currency", "", map[string]any{"currency": "E1R"}, ""},
		{"payerId too short", "spec.payerId", "", map[string]any{"payerId": "DE8937"}, ""},
		{"payerId not alphanumeric", "spec.payerId", "", map[string]any{"payerId": "DE89-3704-0044"}, ""},
		{"payeeId equal to payerId", "spec.payeeId", "payeeId must be != payerId", map[string]any{"payeeId": "DE89370400440532"}, ""},
		{"tenantId not a DNS label", "spec.tenantId", "", map[string]any{"tenantId": "Acme_Corp"}, ""},
		{"idempotencyKey too short", "spec.idempotencyKey", "", map[string]any{"idempotencyKey": "k1"}, ""},
		{"description too long", "spec.description", "", map[string]any{"description": strings.Repeat("x", 141)}, ""},
		{"method unknown", "spec.method", "", map[string]any{"method": "cash"}, ""},
		{"card without cardLast4", "spec.cardLast4", "cardLast4 is required", map[string]any{"method": "card"}, ""},
		{"cardLast4 not digits", "spec.cardLast4", "", map[string]any{"method": "card", "cardLast4": "42a2"}, ""},
		{"tags repeated", "spec.tags[1]", "", map[string]any{"tags": []any{"q3", "q3"}}, ""},
		{"tag not alphanumeric", "spec.tags[0]", "", map[string]any{"tags": []any{"q-3"}}, ""},
		{"priority above 9", "spec.priority", "", map[string]any{"priority": int64(10)}, ""},
		{"refund without a reason", "spec.refund.reason", "", map[string]any{"refund": map[string]any{"reason": "no"}}, ""},
	} {
		spec := validSpec()
		for k, v := range c.set {
			spec[k] = v
		}
		delete(spec, c.drop)
		wantInvalid(t, c.name, k8s.Create(ctx, unstructuredOrder(ns, spec)), c.field, c.msg)
	}

	// what is charged cannot change afterwards
	for field, v := range map[string]any{"amount": 99.0, "currency": "USD", "payerId": "DE00000000000000", "payeeId": "FR00000000000000", "idempotencyKey": "another-key"} {
		spec := validSpec()
		spec["idempotencyKey"] = "first-key"
		obj := unstructuredOrder(ns, spec)
		if err := k8s.Create(ctx, obj); err != nil {
			t.Fatal(err)
		}
		if err := unstructured.SetNestedField(obj.Object, v, "spec", field); err != nil {
			t.Fatal(err)
		}
		wantInvalid(t, "changing "+field, k8s.Update(ctx, obj), "spec."+field, field+" is immutable")
	}
}
