// Package admit is the run time of the validating webhooks modelgen
// generates (zz_generated.webhook.go, docs/webhook.md): it runs the
// application's validator on a decoded object and turns validator's errors,
// and the access denials of package rbac, into the field errors and the
// Invalid API error the API server shows the client.
//
// # What the generated code holds
//
// Each package with a webhook gets one Table: its struct fields by Go name
// ("pkg.Type.GoField") with their JSON names, and what each validate keyword
// of the package checks, in modelgen's words. Everything else lives here,
// written once:
//
//	var webhookTable = &admit.Table{Fields: map[string]admit.Field{...}, Messages: map[string]string{...}}
//
//	errs := webhookTable.Validate(w.Validate, "shop.Shop", obj)
//	return nil, admit.InvalidError(schema.GroupKind{Group: "shop.example.com", Kind: "Shop"}, obj.Name, errs)
//
// # The validator
//
// Validate runs the *validator.Validate it is given: the application's, with
// the validations it registers itself (RegisterValidation) for the keywords
// modelgen.yaml's validatorKeywords declares. Given nil it runs a shared
// validator.New(), which knows only validator's own keywords. A tag whose
// keyword the validator does not know makes validator panic; Validate
// refuses the object with an internal error instead, so the write fails
// closed and the webhook server stays up.
//
// It imports the standard library, validator, apimachinery's field errors
// and package rbac: what the generated webhook imports anyway (a test over
// go list -deps keeps it so).
package admit
