// Package model is modelgen's intermediate representation (IR): Load reads
// Go packages once and resolves every tag and marker on them into typed,
// positioned values; every backend reads the Model it returns and nothing
// else.
//
// # What the IR holds
//
//   - Packages and their Types (structs, enums, other named types), each
//     Field with its JSON name as encoding/json reads it (empty names,
//     "-", ",string", embedded promotion and dominance), its TypeRef, its
//     kubebuilder and modelgen markers and its position;
//   - Field.Validate: the validate tag as Rules, Levels (the field, and
//     after dive each element, key or value), Checks (a|b) and Uses (one
//     keyword with its parsed parameter, Use.Value), each use resolved
//     against the keyword registry (Keyword, Lookup, Keywords);
//   - Model.RuntimeOnly: the checks no schema carries (Keyword.Carry
//     decides), which validator and the generated webhook enforce;
//   - Field.Machine and Model.Machines: the checked state machines of the
//     `state` tags; Field.Access, Type.Access and Model.Access: the
//     resolved `access` rules (roles, read and write, the tenant key);
//   - Model.Diags: every diagnostic of the load, errors and warnings, each
//     at a file:line:col.
//
// # Invariants
//
//   - Every tag is parsed exactly once, here: the parsers (model/vtag,
//     model/statetag, model/accesstag) are imported by this package alone,
//     and the IR exposes none of their types (gen/layers_test.go checks the
//     imports).
//   - A Model whose Diags hold an error is not generated from; a Model
//     without errors is complete: every Use resolved, every Machine
//     checked, every JSON name decided. Backends never change it.
//   - This package imports no backend, no schema and no OpenAPI code. How a
//     keyword becomes an apiextensions schema fragment or a CEL rule (its
//     lowering) is package schema's; the model only says, per use, what a
//     schema can carry of it (Carry), because Load warns at the uses none
//     can.
//
// # Who reads it
//
// gen.Run hands the Model to the backends: schema (structural schemas for
// the CRD and OpenAPI targets), gen/crd, gen/openapidoc, gen/deepcopy,
// gen/statemachine, gen/rbac, gen/webhook, gen/policy and gen/agree; the
// CLI prints Model.Diags; the agreement harness (agree) and the gate's
// tests load models of their own cases.
//
// # Adding a keyword
//
// A typed definition in keywords_*.go (name, class, Doc, Schema, Resolve,
// Carry), listed in newRegistry (registry.go); a keyword of class Schema or
// CEL also needs a lowering in package schema (lower_*.go), or its uses
// are errors. docs/architecture.md walks through the steps.
package model
