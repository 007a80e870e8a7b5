// Package webhook is the backend of the checks no schema can carry. Some
// validate keywords (iso4217, uppercase, url, ...; the registry's runtime
// class) and some uses of others (alternatives with them, map keys, times
// compared with the clock) are enforced by the validator at run time only,
// and generation warns about each. For every custom resource whose fields
// hold such a check (or every custom resource, with `webhook: always` in
// modelgen.yaml; none with `webhook: never`) it writes:
//
//   - zz_generated.webhook.go in the package: a controller-runtime validating
//     webhook per kind (<Kind>Webhook, an admission.Validator[*<Kind>]) that
//     runs the application's *validator.Validate on the decoded object on
//     create and update, reports every failure as a field error at its JSON
//     path (spec.currency) with modelgen's message for the keyword, and on
//     update also checks state machine transitions (with the messages of the
//     CRD's transition rules) and, when Access is set, the access write rules;
//   - <module>/<webhookDir>/<group>_<version>_manifests.yaml: the
//     ValidatingWebhookConfiguration in controller-gen's layout (a service
//     reference with controller-runtime's path for the kind,
//     /validate-<group-with-dashes>-<version>-<kind>; failurePolicy Fail;
//     sideEffects None; CREATE and UPDATE, and the status subresource of a
//     kind with a state machine), with cert-manager's inject-ca-from
//     annotation when webhookCertificate is set.
//
// What does not depend on the package's types (running the validator,
// mapping its Go namespaces to JSON paths, the API errors) is the runtime
// package admit, which the generated file imports; the file itself holds
// the kinds' webhooks, their phase checks and one admit.Table of the
// package's fields and keyword messages. controller-runtime is imported by
// the generated file only; admit imports the standard library, validator,
// apimachinery's field errors and rbac, and the runtime packages rbac and
// statemachine stay standard-library only.
package webhook
