package agree_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/modelgen/modelgen/agree"
	"github.com/modelgen/modelgen/agree/internal/cases"
)

// pins fix the exact behaviour behind every documented exception and
// category: one document each, with the three verdicts and the reason the
// harness gives. If a dependency changes its mind (validator's email,
// the API server's CEL ip()), a pin fails and the README must change.
var pins = []struct {
	name      string
	typ       reflect.Type
	spec      string
	validator bool
	openapi   bool
	crd       bool
	listed    string // a substring of the listed reasons ("" when none)
}{
	// exceptions
	{"null-as-zero: a null string is the zero value", reflect.TypeOf(cases.Strings{}), `{"alpha":{"value":"a","omit":null}}`, true, false, true, "openapi: exception null-as-zero"},
	{"null-as-zero: a null list element", reflect.TypeOf(cases.Elements{}), `{"max":{"value":[null]}}`, true, false, false, "crd: exception null-as-zero"},
	{"integral-float-integer: 3.0 for an int", reflect.TypeOf(cases.Ints{}), `{"min":{"value":3.0}}`, false, true, true, "exception integral-float-integer"},
	{"integral-float-integer: 1e1 for an int32", reflect.TypeOf(cases.Int32s{}), `{"max":{"value":1e0}}`, false, true, true, "exception integral-float-integer"},
	{"email-net-mail: a trailing dot", reflect.TypeOf(cases.Strings{}), `{"email":{"value":"a@example.com."}}`, false, true, true, "exception email-net-mail"},
	{"ip-parser: an IPv4-mapped IPv6 address", reflect.TypeOf(cases.Strings{}), `{"ipv4":{"value":"::ffff:10.0.0.1"}}`, true, true, false, "crd: exception ip-parser"},
	{"ip-parser: a zero-padded prefix", reflect.TypeOf(cases.Strings{}), `{"cidr":{"value":"10.0.0.0/08"}}`, true, true, false, "crd: exception ip-parser"},
	{"empty-bytes: an empty base64 string", reflect.TypeOf(cases.Bytes{}), `{"lt":{"value":""}}`, true, true, false, "crd: exception empty-bytes"},
	{"float32-rounding: 0.5 + 1 ulp is 0.5", reflect.TypeOf(cases.Float32s{}), `{"eq":{"value":0.5000000000000001}}`, true, false, false, "exception float32-rounding"},
	{"float32-rounding: 5e-324 is zero", reflect.TypeOf(cases.Float32s{}), `{"gt":{"value":1,"omit":5e-324}}`, true, false, false, "exception float32-rounding"},
	{"format-array: a list for a date-time string", reflect.TypeOf(cases.Times{}), `{"excludedWith":{"omit":["0"]}}`, false, false, true, "crd: exception format-array"},
	{"bytes-array: a []byte as a list of numbers", reflect.TypeOf(cases.Bytes{}), `{"max":{"value":[120,120]}}`, true, false, false, "openapi: exception bytes-array"},
	{"base64-newlines: a newline inside base64", reflect.TypeOf(cases.Bytes{}), `{"max":{"value":"eA==\n"}}`, true, false, false, "exception base64-newlines"},
	// categories
	{"cel-only: CEL rules are extensions to OpenAPI", reflect.TypeOf(cases.Strings{}), `{"ip":{"value":"x"}}`, false, true, false, "openapi: cel-only"},
	{"runtime-only: a time compared with the clock", reflect.TypeOf(cases.Times{}), `{"gt":{"value":"2000-01-01T00:00:00Z"}}`, false, true, true, "runtime-only"},
	// fixed in the generator, pinned so that they stay fixed
	{"fixed: 0.5 is not 0 for a float omitempty zero guard", reflect.TypeOf(cases.Floats{}), `{"gt2":{"value":3,"omit":0.5}}`, false, false, false, ""},
	{"fixed: gt=-1.5 lets the integer -1 through", reflect.TypeOf(cases.Floats{}), `{"gt3":{"value":-1,"omit":-1}}`, true, true, true, ""},
	{"fixed: uint8 refuses -1", reflect.TypeOf(cases.Uint8s{}), `{"max":{"value":-1}}`, false, false, false, ""},
	{"fixed: oneofci folds the Kelvin sign", reflect.TypeOf(cases.Strings{}), `{"oneofci":{"value":"\u212aelvin"}}`, true, true, true, ""},
	{"fixed: cidrv4 refuses host bits", reflect.TypeOf(cases.Strings{}), `{"cidrv4":{"value":"10.0.0.1/8"}}`, false, true, false, "openapi: cel-only"},
	{"fixed: omitempty,required lets a missing field through", reflect.TypeOf(cases.Bools{}), `{"required":{"value":true}}`, true, true, true, ""},
	{"fixed: []byte length counts decoded bytes", reflect.TypeOf(cases.Bytes{}), `{"min":{"value":"eA=="}}`, false, true, false, "openapi: cel-only"},
}

func TestPinnedBehaviour(t *testing.T) {
	h, err := harness()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pins {
		t.Run(p.name, func(t *testing.T) {
			j, err := h.JudgeDocument(p.typ, resource(p.typ, p.spec))
			if err != nil {
				t.Fatal(err)
			}
			if j.Validator.Accept != p.validator || j.OpenAPI.Accept != p.openapi || j.CRD.Accept != p.crd {
				t.Fatalf("want validator %v, openapi %v, crd %v; got\n%s", p.validator, p.openapi, p.crd, j.String())
			}
			listed := strings.Join(j.Listed, "; ")
			if j.Unlisted || !strings.Contains(listed, p.listed) || p.listed == "" && listed != "" {
				t.Fatalf("want listed %q, got %q (unlisted %v)\n%s", p.listed, listed, j.Unlisted, j.String())
			}
		})
	}
}

// resource wraps a spec into a document of a case resource.
func resource(t reflect.Type, spec string) []byte {
	return []byte(fmt.Sprintf(`{"apiVersion":"cases.agree.modelgen.dev/cases","kind":%q,"metadata":{"name":"pin","namespace":"default"},"spec":%s}`, t.Name(), spec))
}

// TestBuiltinExceptionsArePinned keeps every documented exception pinned.
func TestBuiltinExceptionsArePinned(t *testing.T) {
	for _, ex := range agree.Builtin() {
		found := false
		for _, p := range pins {
			found = found || strings.Contains(p.listed, "exception "+ex.Name)
		}
		if !found {
			t.Errorf("exception %s has no pinned document", ex.Name)
		}
	}
}
