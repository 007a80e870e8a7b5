// Package yamlout renders JSON documents as YAML with the bytes
// sigs.k8s.io/yaml.JSONToYAML gives, in one pass and without yaml.v2's
// event queue: JSONToYAML parses the JSON with the YAML parser to type its
// numbers and then encodes with yaml.v2; here encoding/json decodes it, the
// numbers get the types the YAML parser would give them (int when it fits,
// then int64, uint64, float64), and emit.go writes the text yaml.v2's
// emitter would (ported from it). A value emit.go was not ported for is
// handed to yaml.Marshal whole, so the bytes are always yaml.Marshal's.
package yamlout

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	yaml "sigs.k8s.io/yaml/goyaml.v2"
)

// FromJSON is JSONToYAML(js), without parsing the JSON as YAML.
func FromJSON(js []byte) ([]byte, error) {
	v, err := Decode(js)
	if err != nil {
		return nil, err
	}
	return Encode(v)
}

// Decode reads one JSON value into maps, slices and json.Number values.
func Decode(js []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// Encode writes a value Decode returned (its maps perhaps edited) as YAML,
// the bytes yaml.Marshal gives.
func Encode(v any) ([]byte, error) {
	v = typed(v)
	if !lineWrapping() {
		return yaml.Marshal(v)
	}
	out, err := emitDocument(nil, v)
	if errors.Is(err, errUnsupported) {
		return yaml.Marshal(v)
	}
	return out, err
}

// lineWrapping reports whether yaml.v2 folds long lines at 80 columns, as
// emit.go does: yaml.FutureLineWrap turns that off for the whole process.
func lineWrapping() bool {
	b, err := yaml.Marshal(wrapProbe)
	return err == nil && bytes.Count(b, []byte("\n")) > 1
}

var wrapProbe = strings.Repeat("fold ", 20) + "here"

// typed replaces each json.Number with the value the YAML parser resolves
// its text to.
func typed(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if n, ok := e.(json.Number); ok { // else edited in place, if at all: no store
				x[k] = Number(string(n))
			} else {
				typed(e)
			}
		}
	case []any:
		for i, e := range x {
			x[i] = typed(e)
		}
	case json.Number:
		return Number(string(x))
	}
	return v
}

// Number is the value the YAML parser resolves a JSON number's text to:
// int when it fits, then int64, uint64, float64 (the text itself when it
// is none of them).
func Number(s string) any {
	if i, err := strconv.ParseInt(s, 0, 64); err == nil {
		if i == int64(int(i)) {
			return int(i)
		}
		return i
	}
	if u, err := strconv.ParseUint(s, 0, 64); err == nil {
		return u
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return f
	}
	return s
}
