// Package yamlout renders JSON documents as YAML with the bytes
// sigs.k8s.io/yaml.JSONToYAML gives, in one encoder pass: JSONToYAML parses
// the JSON with the YAML parser to type its numbers and then encodes; here
// encoding/json decodes it and the numbers get the types the YAML parser
// would give them (int when it fits, then int64, uint64, float64), so the
// YAML encoder (the same one) writes the same text.
package yamlout

import (
	"bytes"
	"encoding/json"
	"fmt"
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
// the bytes yaml.Marshal gives. yaml.v2's emitter keeps every event of a
// document in its queue until the document ends (emitterc.go,
// yaml_emitter_emit appends and never trims), hundreds of MB for a large
// OpenAPI document; so a mapping of more than chunkNodes nodes is encoded a
// group of entries at a time (see chunks).
func Encode(v any) ([]byte, error) {
	var out bytes.Buffer
	if err := encode(&out, nil, typed(v)); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// chunkNodes bounds the nodes one yaml.Marshal call encodes (a variable
// for the tests).
var chunkNodes = 20000

// encode writes v, found at the mapping keys path, as it shows in the
// whole document.
func encode(out *bytes.Buffer, path []string, v any) error {
	m, ok := v.(map[string]any)
	if !ok || len(path) > 32 || nodes(v, chunkNodes) <= chunkNodes {
		return emit(out, path, v)
	}
	keys, ok := yamlOrder(m)
	if !ok {
		return emit(out, path, v)
	}
	group, size := map[string]any{}, 0
	flush := func() error {
		if len(group) == 0 {
			return nil
		}
		err := emit(out, path, group)
		group, size = map[string]any{}, 0
		return err
	}
	for _, k := range keys {
		n := nodes(m[k], chunkNodes)
		if _, big := m[k].(map[string]any); big && n > chunkNodes && nests(path, k) {
			if err := flush(); err != nil {
				return err
			}
			if err := entryHead(out, path, k); err != nil {
				return err
			}
			if err := encode(out, append(path[:len(path):len(path)], k), m[k]); err != nil {
				return err
			}
			continue
		}
		if size+n > chunkNodes {
			if err := flush(); err != nil {
				return err
			}
		}
		group[k], size = m[k], size+n+1
	}
	return flush()
}

// emit writes v as it shows below path in the whole document: encoded
// inside the mappings of path, so that its indentation and line folding
// are the document's, without the lines of path's keys.
func emit(out *bytes.Buffer, path []string, v any) error {
	b, err := yaml.Marshal(wrap(path, v))
	if err != nil {
		return err
	}
	head, err := pathHead(path)
	if err != nil {
		return err
	}
	if !bytes.HasPrefix(b, head) {
		return fmt.Errorf("yamlout: the encoding of %q does not start with its keys", path)
	}
	out.Write(b[len(head):])
	return nil
}

// entryHead writes the line(s) of key k of the mapping at path, whose
// value follows as a block mapping.
func entryHead(out *bytes.Buffer, path []string, k string) error {
	outer, err := pathHead(path)
	if err != nil {
		return err
	}
	inner, err := pathHead(append(path[:len(path):len(path)], k))
	if err != nil {
		return err
	}
	if !bytes.HasPrefix(inner, outer) {
		return fmt.Errorf("yamlout: the keys of %q do not nest", path)
	}
	out.Write(inner[len(outer):])
	return nil
}

// nests reports whether the value of key k at path can be encoded on its
// own: its key is a simple key (a long one is written "? key", and its
// value after a ":" on the next line).
func nests(path []string, k string) bool {
	_, err := pathHead(append(path[:len(path):len(path)], k))
	return err == nil
}

// pathHead is what yaml.Marshal writes for the keys of path before the
// entries of the mapping at path.
func pathHead(path []string) ([]byte, error) {
	const probe = "yamlout-probe"
	b, err := yaml.Marshal(wrap(path, map[string]any{probe: nil}))
	if err != nil {
		return nil, err
	}
	last := bytes.LastIndex(b, []byte(probe))
	start := bytes.LastIndexByte(b[:max(last, 0)], '\n') + 1
	if last < 0 || strings.TrimSpace(string(b[start:last])) != "" {
		return nil, fmt.Errorf("yamlout: no head for %q", path)
	}
	return b[:start], nil
}

func wrap(path []string, v any) any {
	for i := len(path) - 1; i >= 0; i-- {
		v = map[string]any{path[i]: v}
	}
	return v
}

// yamlOrder lists a mapping's keys in the order yaml.Marshal writes them
// (its own: digits compare as numbers), asked of yaml.Marshal itself.
func yamlOrder(m map[string]any) ([]string, bool) {
	stub := make(map[string]any, len(m))
	for k := range m {
		stub[k] = nil
	}
	b, err := yaml.Marshal(stub)
	if err != nil {
		return nil, false
	}
	var ms yaml.MapSlice
	if err := yaml.Unmarshal(b, &ms); err != nil || len(ms) != len(m) {
		return nil, false
	}
	keys := make([]string, 0, len(ms))
	for _, it := range ms {
		k, ok := it.Key.(string)
		if _, in := m[k]; !ok || !in {
			return nil, false
		}
		keys = append(keys, k)
	}
	return keys, true
}

// nodes counts the nodes of v, stopping past limit.
func nodes(v any, limit int) int {
	n := 1
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			if n > limit {
				break
			}
			n += 1 + nodes(e, limit-n)
		}
	case []any:
		for _, e := range x {
			if n > limit {
				break
			}
			n += nodes(e, limit-n)
		}
	}
	return n
}

// typed replaces each json.Number with the value the YAML parser resolves
// its text to.
func typed(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = typed(e)
		}
	case []any:
		for i, e := range x {
			x[i] = typed(e)
		}
	case json.Number:
		return number(string(x))
	}
	return v
}

func number(s string) any {
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
