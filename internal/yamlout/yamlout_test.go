package yamlout

import (
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
