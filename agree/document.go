package agree

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// step is one step of a JSON path: a property, a list index or a map key
// (a property of a map rather than of a struct).
type step struct {
	key    string
	index  int // >= 0 for a list element
	mapKey bool
}

func prop(key string) step  { return step{key: key, index: -1} }
func elem(i int) step       { return step{index: i} }
func entry(key string) step { return step{key: key, index: -1, mapKey: true} }
func pathString(p []step) string {
	var b strings.Builder
	for _, s := range p {
		switch {
		case s.index >= 0:
			b.WriteString("[" + strconv.Itoa(s.index) + "]")
		case s.mapKey:
			b.WriteString("[" + strconv.Quote(s.key) + "]")
		default:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s.key)
		}
	}
	return b.String()
}

func appendPath(p []step, s ...step) []step {
	return append(append([]step(nil), p...), s...)
}

// A document is a JSON value tree: map[string]any, []any, string, bool,
// json.Number (numbers keep their exact text: 0 and 0.0 are different
// documents to a decoder) and nil for null.
type document = map[string]any

func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = deepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = deepCopy(e)
		}
		return out
	}
	return v
}

// set puts value at path (or removes the last step when absent), creating
// the objects and lists on the way; a list on the way is grown with
// filler elements. doc must be a private copy: it is changed in place.
func set(doc document, path []step, value any, absent bool, filler func(path []step) any) {
	setIn(doc, path, 0, value, absent, filler)
}

func setIn(cur any, path []step, depth int, value any, absent bool, filler func(path []step) any) any {
	if depth == len(path) {
		return value
	}
	st, last := path[depth], depth == len(path)-1
	if st.index >= 0 {
		list, _ := cur.([]any)
		for len(list) <= st.index {
			list = append(list, filler(path[:depth+1]))
		}
		if last && absent {
			return append(list[:st.index], list[st.index+1:]...)
		}
		list[st.index] = setIn(list[st.index], path, depth+1, value, absent, filler)
		return list
	}
	obj, ok := cur.(map[string]any)
	if !ok {
		obj = map[string]any{}
	}
	if last && absent {
		delete(obj, st.key)
		return obj
	}
	obj[st.key] = setIn(obj[st.key], path, depth+1, value, absent, filler)
	return obj
}

// get reads the value at path (nil when absent).
func get(doc any, path []step) any {
	cur := doc
	for _, st := range path {
		switch c := cur.(type) {
		case map[string]any:
			cur = c[st.key]
		case []any:
			if st.index < 0 || st.index >= len(c) {
				return nil
			}
			cur = c[st.index]
		default:
			return nil
		}
	}
	return cur
}

// has reports whether the last step of path is present.
func has(doc any, path []step) bool {
	if len(path) == 0 {
		return true
	}
	parent := get(doc, path[:len(path)-1])
	st := path[len(path)-1]
	switch p := parent.(type) {
	case map[string]any:
		_, ok := p[st.key]
		return ok
	case []any:
		return st.index >= 0 && st.index < len(p)
	}
	return false
}

// encode renders a document as JSON, keeping numbers as written and
// characters such as '<' unescaped.
func encode(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return []byte("null")
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// decode reads a document keeping numbers as json.Number.
func decode(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	err := d.Decode(&v)
	return v, err
}
