package yamlout

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// TestSameBytesAsJSONToYAML: numbers of every kind, strings that need
// quoting or escapes, nesting, empty objects and lists, key order.
func TestSameBytesAsJSONToYAML(t *testing.T) {
	for _, js := range []string{
		`{"b":1,"a":-0,"c":1.5,"d":1e+21,"e":10000000000000000000,"f":-9223372036854775808,"g":0.01,"h":3.0e-7}`,
		`{"s":"yes","t":"1","u":"\u003cx\u003e","v":"a: b","w":"line\nnext","x":"","y":null,"z":true}`,
		`{"k10":1,"k2":2,"K":3,"_":4,"0":5,"a b":{"deep":[1,"two",{"three":[]},{}]}}`,
		`[1,2,{"a":"b"}]`,
		`"plain"`,
	} {
		want, err := yaml.JSONToYAML([]byte(js))
		if err != nil {
			t.Fatal(err)
		}
		got, err := FromJSON([]byte(js))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%s:\n got %q\nwant %q", js, got, want)
		}
	}
}

// TestChunksGiveTheWholeEncoding: a document encoded a few entries at a
// time has the bytes of one yaml.Marshal of the whole: key order (digits
// compared as numbers), indentation, strings folded at the document's
// columns, a key too long to be a simple key, sequences of mappings.
func TestChunksGiveTheWholeEncoding(t *testing.T) {
	long := strings.Repeat("a long string that the emitter folds at its width ", 4)
	doc := map[string]any{}
	for i := range 40 {
		inner := map[string]any{}
		for j := range 12 {
			inner[fmt.Sprintf("f%d", j)] = []any{long, map[string]any{"x": j, "y": "1", "z": map[string]any{"deep": long}}}
		}
		doc[fmt.Sprintf("k%d", i)] = map[string]any{"props": inner, "n": i}
	}
	doc[strings.Repeat("k", 140)] = map[string]any{"a": map[string]any{"b": 1, "c": []any{1, 2}}, "d": long}
	doc["paths"] = map[string]any{"/apis/v1/{name}": map[string]any{"get": map[string]any{"description": long}}}
	for _, js := range []any{doc, examplesDocument(t)} {
		want, err := yaml.Marshal(js)
		if err != nil {
			t.Fatal(err)
		}
		for _, limit := range []int{1, 3, 50, 1000} {
			chunkNodes = limit
			got, err := Encode(js)
			chunkNodes = 20000
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(want) {
				t.Fatalf("chunks of %d nodes: %d bytes against %d; first difference at byte %d", limit, len(got), len(want), firstDiff(got, want))
			}
		}
	}
}

// examplesDocument is the PaymentOrder example's OpenAPI document.
func examplesDocument(t *testing.T) any {
	b, err := os.ReadFile("../../examples/payments/api/v1alpha1/openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	js, err := yaml.YAMLToJSON(b)
	if err != nil {
		t.Fatal(err)
	}
	v, err := Decode(js)
	if err != nil {
		t.Fatal(err)
	}
	return typed(v)
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
