package agree_test

import (
	"reflect"
	"testing"

	"github.com/modelgen/modelgen/agree"
	"github.com/modelgen/modelgen/agree/testdata/exact"
)

// TestExactShapes judges the shapes where validator's semantics decide what
// a schema may carry (elements without dive, optional structs, durations,
// fixed arrays, named byte slices, uint64 limits, quoted conditional
// parameters) with validator, the OpenAPI schema and the CRD's schema in
// the API server's own validation, all built by modelgen's pipeline.
func TestExactShapes(t *testing.T) {
	agree.Check(t, agree.Config{Dir: "testdata/exact", Types: []reflect.Type{reflect.TypeOf(exact.Exact{})}})
}
