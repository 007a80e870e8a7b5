package openapi

import (
	"sort"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// pruneUnreached removes the component schemas no path reaches. Every
// selected type has paths; a component nothing reaches is a type the Go
// code names but no schema uses (a named map key type: JSON object keys are
// strings whatever their Go type), so it is no part of the contract, and
// compatibility checkers, which judge only what a path reaches, would never
// look at it.
func pruneUnreached(doc *openapi3.T) {
	seen := map[string]bool{}
	var visit func(r *openapi3.SchemaRef)
	visit = func(r *openapi3.SchemaRef) {
		if r == nil {
			return
		}
		if name, ok := strings.CutPrefix(r.Ref, "#/components/schemas/"); ok {
			if seen[name] {
				return
			}
			seen[name] = true
			visit(doc.Components.Schemas[name])
			return
		}
		if r.Value != nil {
			eachSchemaRef(r.Value, visit)
		}
	}
	for _, path := range doc.Paths.InMatchingOrder() {
		for _, op := range doc.Paths.Value(path).Operations() {
			if op.RequestBody != nil && op.RequestBody.Value != nil {
				for _, mt := range op.RequestBody.Value.Content {
					visit(mt.Schema)
				}
			}
			for _, resp := range op.Responses.Map() {
				if resp.Value != nil {
					for _, mt := range resp.Value.Content {
						visit(mt.Schema)
					}
				}
			}
			for _, p := range op.Parameters {
				if p.Value != nil {
					visit(p.Value.Schema)
				}
			}
		}
	}
	var gone []string
	for name := range doc.Components.Schemas {
		if !seen[name] {
			gone = append(gone, name)
		}
	}
	sort.Strings(gone)
	for _, name := range gone {
		delete(doc.Components.Schemas, name)
	}
}

// eachSchemaRef calls f on every schema directly under s.
func eachSchemaRef(s *openapi3.Schema, f func(*openapi3.SchemaRef)) {
	for _, list := range []openapi3.SchemaRefs{s.AllOf, s.AnyOf, s.OneOf} {
		for _, r := range list {
			f(r)
		}
	}
	f(s.Not)
	f(s.Items)
	for _, r := range s.Properties {
		f(r)
	}
	f(s.AdditionalProperties.Schema)
}
