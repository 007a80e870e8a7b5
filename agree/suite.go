package agree

import (
	"reflect"

	"github.com/modelgen/modelgen/agree/internal/cases"
	"github.com/modelgen/modelgen/agree/internal/runtimecases"
)

// casesPath is the package of modelgen's own agreement suite.
const casesPath = "github.com/modelgen/modelgen/agree/internal/cases"

// SuiteTypes are the resources of modelgen's own agreement suite, one per
// kind, each declaring every validate keyword the registry maps on that
// kind (generated from the registry; see cases_gen_test.go).
func SuiteTypes() []reflect.Type {
	return []reflect.Type{
		reflect.TypeOf(cases.Strings{}), reflect.TypeOf(cases.StringPointers{}),
		reflect.TypeOf(cases.Ints{}), reflect.TypeOf(cases.Int32s{}), reflect.TypeOf(cases.Uint8s{}), reflect.TypeOf(cases.IntPointers{}),
		reflect.TypeOf(cases.Floats{}), reflect.TypeOf(cases.Float32s{}),
		reflect.TypeOf(cases.Bools{}), reflect.TypeOf(cases.Durations{}),
		reflect.TypeOf(cases.Times{}), reflect.TypeOf(cases.MetaTimes{}),
		reflect.TypeOf(cases.Slices{}), reflect.TypeOf(cases.Maps{}), reflect.TypeOf(cases.Bytes{}),
		reflect.TypeOf(cases.Structs{}), reflect.TypeOf(cases.StructPointers{}),
		reflect.TypeOf(cases.Elements{}), reflect.TypeOf(cases.Keys{}),
	}
}

// Suite loads modelgen's own agreement suite (schemas built in memory by
// modelgen's pipeline), for the real-server cross-check and for tools.
func Suite() (*Harness, error) {
	return New(Config{Package: casesPath, Types: SuiteTypes()})
}

// RuntimeCorpus loads the corpus of the keywords no schema can carry: one
// field per runtime-only keyword, judged with the generated webhook on the
// server side.
func RuntimeCorpus() (*Harness, error) {
	return New(Config{Package: "github.com/modelgen/modelgen/agree/internal/runtimecases", Types: []reflect.Type{reflect.TypeOf(runtimecases.RuntimeOnly{})}})
}
