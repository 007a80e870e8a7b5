package yamlout

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
	yamlv2 "sigs.k8s.io/yaml/goyaml.v2"
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

// TestLargeDocumentSameBytes: a document too big to write a line at a
// time by hand has the bytes of yaml.Marshal: key order (digits compared
// as numbers), indentation, strings folded at the document's columns, a
// key too long to be a simple key, sequences of mappings.
func TestLargeDocumentSameBytes(t *testing.T) {
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
	for _, v := range []any{doc, examplesDocument(t)} {
		assertSameBytes(t, "document", v)
	}
}

// TestGoldensSameBytes decodes every YAML document of the repository's
// YAML files (goldens, examples, testdata) as JSON values and writes each
// with the direct emitter and with yaml.Marshal.
func TestGoldensSameBytes(t *testing.T) {
	docs := 0
	separator := regexp.MustCompile(`(?m)^---[ \t]*$`)
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !(strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, part := range separator.Split(string(b), -1) {
			js, err := yaml.YAMLToJSON([]byte(part))
			if err != nil || string(js) == "null" {
				continue // not YAML (an input that must fail), or empty
			}
			v, err := Decode(js)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			assertSameBytes(t, fmt.Sprintf("%s document %d", path, i), typed(v))
			docs++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if docs < 150 {
		t.Fatalf("only %d YAML documents found in the repository", docs)
	}
	t.Logf("%d documents", docs)
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

// assertSameBytes fails unless the direct emitter (not its fallback)
// writes v as yaml.Marshal does.
func assertSameBytes(t *testing.T, name string, v any) {
	t.Helper()
	want, err := yamlv2.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	got, err := emitDocument(nil, v)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if !bytes.Equal(got, want) {
		i := firstDiff(got, want)
		t.Fatalf("%s: %d bytes against yaml.Marshal's %d; first difference at byte %d:\n got %q\nwant %q",
			name, len(got), len(want), i, around(got, i), around(want, i))
	}
}

func around(b []byte, i int) []byte {
	return b[max(i-80, 0):min(i+80, len(b))]
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
