// Package conversion is the runtime of the code modelgen generates for a
// group served in several versions (docs/conversion.md): it keeps the
// fields one version has and the other lacks in an annotation of the
// converted object, so that both round trips (spoke → hub → spoke and
// hub → spoke → hub) are lossless, as Cluster API does.
//
// The annotation is AnnotationPrefix + the version whose fields it holds
// (conversion.modelgen.io/v1alpha1 on a v1 object holds the v1alpha1 fields
// v1 lacks). Its value is JSON: the object as that version writes it, with
// only the kept fields (no apiVersion, kind or metadata). It is written only
// when a kept field is set, and removed when the object is converted back.
package conversion

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// AnnotationPrefix begins the annotation that keeps a version's fields.
const AnnotationPrefix = "conversion.modelgen.io/"

// VersionsAnnotation is the annotation the generated CRD patch
// (config/crd/patches/webhook_in_<plural>.yaml) sets on the CRD: the
// versions its generated conversion converts, comma-separated
// ("v1,v1alpha1"). modelgen's conversion backend writes it and the CRD gate
// reads it (crd-conversion-version-uncovered); both take the name from here.
const VersionsAnnotation = AnnotationPrefix + "versions"

// Each is the path segment that stands for every element of a list or
// every value of a map.
const Each = "[]"

// Save keeps the fields of from (an object of the given version) at the
// given JSON paths in the annotation AnnotationPrefix+version of to. Unset
// fields (absent, null or zero) are not kept; when none is set, to gets no
// annotation.
func Save(to metav1.Object, version string, from any, paths [][]string) error {
	doc, err := toJSON(from)
	if err != nil {
		return fmt.Errorf("conversion: keeping the %s fields: %w", version, err)
	}
	var kept any
	for _, p := range paths {
		kept = merge(kept, keep(doc, p))
	}
	if kept == nil {
		return nil
	}
	data, err := json.Marshal(kept)
	if err != nil {
		return fmt.Errorf("conversion: keeping the %s fields: %w", version, err)
	}
	ann := map[string]string{}
	for k, v := range to.GetAnnotations() {
		ann[k] = v
	}
	ann[AnnotationPrefix+version] = string(data)
	to.SetAnnotations(ann)
	return nil
}

// Take restores into obj (a pointer to an object of the given version) the
// fields at the given paths that the annotation AnnotationPrefix+version
// of obj kept, and removes the annotation. Without the annotation obj is
// left as it is.
func Take(obj metav1.Object, version string, paths [][]string) error {
	key := AnnotationPrefix + version
	data, ok := obj.GetAnnotations()[key]
	if !ok {
		return nil
	}
	ann := map[string]string{}
	for k, v := range obj.GetAnnotations() {
		if k != key {
			ann[k] = v
		}
	}
	if len(ann) == 0 {
		ann = nil
	}
	obj.SetAnnotations(ann)
	var kept any
	if err := decode([]byte(data), &kept); err != nil {
		return fmt.Errorf("conversion: annotation %s: %w", key, err)
	}
	doc, err := toJSON(obj)
	if err != nil {
		return fmt.Errorf("conversion: restoring the %s fields: %w", version, err)
	}
	for _, p := range paths {
		doc = restore(doc, keep(kept, p), p)
	}
	out, err := json.Marshal(doc)
	if err != nil {
		return fmt.Errorf("conversion: restoring the %s fields: %w", version, err)
	}
	v := reflect.ValueOf(obj)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return fmt.Errorf("conversion: restoring the %s fields: %T is not a pointer", version, obj)
	}
	fresh := reflect.New(v.Elem().Type())
	if err := json.Unmarshal(out, fresh.Interface()); err != nil {
		return fmt.Errorf("conversion: restoring the %s fields: %w", version, err)
	}
	v.Elem().Set(fresh.Elem())
	return nil
}

func toJSON(v any) (any, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var doc any
	return doc, decode(data, &doc)
}

// decode keeps numbers as written (an int64 stays exact).
func decode(data []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	return d.Decode(v)
}

// keep returns the part of doc at path, nil when nothing set is there.
func keep(doc any, path []string) any {
	if len(path) == 0 {
		if zero(doc) {
			return nil
		}
		return doc
	}
	seg, rest := path[0], path[1:]
	if seg == Each {
		switch d := doc.(type) {
		case []any:
			out := make([]any, len(d))
			set := false
			for i, e := range d {
				if out[i] = keep(e, rest); out[i] != nil {
					set = true
				}
			}
			if set {
				return out
			}
			return nil
		case map[string]any:
			out := map[string]any{}
			for k, e := range d {
				if v := keep(e, rest); v != nil {
					out[k] = v
				}
			}
			if len(out) > 0 {
				return out
			}
			return nil
		}
		return nil
	}
	d, ok := doc.(map[string]any)
	if !ok {
		return nil
	}
	v := keep(d[seg], rest)
	if v == nil {
		return nil
	}
	return map[string]any{seg: v}
}

// merge joins what two paths kept.
func merge(a, b any) any {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	switch x := a.(type) {
	case map[string]any:
		if y, ok := b.(map[string]any); ok {
			for k, v := range y {
				x[k] = merge(x[k], v)
			}
			return x
		}
	case []any:
		if y, ok := b.([]any); ok && len(x) == len(y) {
			for i := range x {
				x[i] = merge(x[i], y[i])
			}
			return x
		}
	}
	return b
}

// restore puts what keep kept at path back into doc. A list element or a
// map value is restored only where doc still has it (a list element by its
// index, a map value by its key).
func restore(doc, kept any, path []string) any {
	if kept == nil {
		return doc
	}
	if len(path) == 0 {
		return kept
	}
	seg, rest := path[0], path[1:]
	if seg == Each {
		switch d := doc.(type) {
		case []any:
			if k, ok := kept.([]any); ok {
				for i := 0; i < len(d) && i < len(k); i++ {
					d[i] = restore(d[i], k[i], rest)
				}
			}
		case map[string]any:
			if k, ok := kept.(map[string]any); ok {
				for key, v := range k {
					if e, ok := d[key]; ok {
						d[key] = restore(e, v, rest)
					}
				}
			}
		}
		return doc
	}
	k, ok := kept.(map[string]any)
	if !ok {
		return doc
	}
	d, ok := doc.(map[string]any)
	if !ok {
		d = map[string]any{}
	}
	d[seg] = restore(d[seg], k[seg], rest)
	return d
}

// zero reports a JSON value that decodes to a Go zero value (an object
// is zero when every member is).
func zero(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case bool:
		return !x
	case json.Number:
		f, err := x.Float64()
		return err == nil && f == 0
	case map[string]any:
		// a struct whose fields are all unset
		for _, e := range x {
			if !zero(e) {
				return false
			}
		}
		return true
	}
	return false // a list, even empty, is kept: [] and null differ
}
