// Package agree proves that the schemas modelgen generates and the runtime
// validator (go-playground/validator) accept exactly the same JSON
// documents. It is a differential harness: for Go types with validate tags
// and their generated OpenAPI and CRD schemas, it derives boundary
// documents for every constrained field and judges each one three ways.
//
// # Usage
//
// In a test of the package that declares the types (modelgen generate
// --agree writes one, zz_generated.modelgen_agree_test.go):
//
//	func TestAgreement(t *testing.T) {
//		agree.Check(t, agree.Config{
//			Types:   []reflect.Type{reflect.TypeOf(v1.Sample{})},
//			OpenAPI: "openapi.yaml",
//			CRDs:    []string{"../../config/crd/bases/e2e.modelgen.dev_samples.yaml"},
//		})
//	}
//
// Without OpenAPI and CRDs, the schemas are built in memory by modelgen's
// own pipeline (model.Load, schema overlay, crd.Build, openapi.Document);
// with them, the checked-in files are judged, which also proves them
// current. Check fails the test on every unlisted divergence; New, Run,
// Cases, Judge, JudgeDocument and Mutate give the same machinery to tools,
// fuzz targets and the real-server cross-check.
//
// # The judges
//
//   - validator: json.Unmarshal into the Go type (a decode error is a
//     reject), then Validate.Struct.
//   - OpenAPI: kin-openapi's VisitJSON on the type's component schema, with
//     formats checked and numbers decoded as float64, as a client decodes
//     them.
//   - CRD: the API server's create path in process. The document is
//     decoded with k8s.io/apimachinery/pkg/util/json (integral numbers
//     become int64: {"amount": 0} passes minimum: 0.01 on a real server,
//     and must here too), unknown fields are pruned, nulls of
//     non-nullable fields dropped, metadata coerced, defaults applied; then
//     the structural-schema validator, the embedded-object and list-type
//     checks, and the CEL validator with the server's cost limits. The
//     whole object is validated, spec and status alike (as a create
//     followed by a status update would be).
//
// # Boundary documents
//
// Probes come from the model, not from tables written per field: each
// keyword use's parsed parameter gives the values on both sides of what it
// allows (lengths in several alphabets, numbers next to each bound,
// integral floats, enum values and near misses), the schema each keyword
// generates gives more (pattern matches and near misses), collections get
// empty, nil, sized, duplicated and per-element probes, and cross-field
// keywords get every combination of a few values of their fields. Each
// probe starts from a document validator accepts.
//
// # Divergences
//
// A divergence is a document on which a schema and validator disagree. It
// is listed when a category explains it (RuntimeOnly: generation warned
// the check is enforced by validator only; CELOnly: the OpenAPI document
// carries the check only as a CEL rule), in the lenient direction only, or
// when a documented Exception does (Builtin lists them; the README
// explains each). Everything else is a bug, in the generator or here.
package agree
