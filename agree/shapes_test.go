package agree_test

import (
	"reflect"
	"testing"

	"github.com/modelgen/modelgen/agree"
	"github.com/modelgen/modelgen/agree/testdata/shapes"
)

// TestJSONShapes judges the JSON shapes encoding/json names by its own
// rules (empty names, "-,", unexported fields, embedded structs by value
// and by pointer, embedded non-structs, duplicate names, dominance, fixed
// arrays) with validator, the OpenAPI schema and the CRD's schema, built
// in memory by modelgen's pipeline: a property the schema names otherwise
// than encoding/json is a divergence.
func TestJSONShapes(t *testing.T) {
	agree.Check(t, agree.Config{Dir: "testdata/shapes", Types: []reflect.Type{reflect.TypeOf(shapes.Shapes{})}})
}
