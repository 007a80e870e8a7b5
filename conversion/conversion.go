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
// when a kept field is set (its Go value is not the zero value), and removed
// when the object is converted back, after only the kept fields were
// written into the object's Go value.
package conversion

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

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

// Save keeps the fields of from (a pointer to an object of the given
// version) at the given JSON paths in the annotation
// AnnotationPrefix+version of to. Unset fields (whose Go value is the zero
// value: absent, nil, "", 0 or false; a pointer to "" is set) are not kept;
// when none is set, to gets no annotation.
func Save(to metav1.Object, version string, from any, paths [][]string) error {
	v := reflect.ValueOf(from)
	var kept any
	for _, p := range paths {
		k, err := keep(v, p)
		if err != nil {
			return fmt.Errorf("conversion: keeping the %s fields: %w", version, err)
		}
		kept = merge(kept, k)
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
// left as it is. Only the fields at the paths are written: the rest of obj
// keeps its Go values.
func Take(obj metav1.Object, version string, paths [][]string) error {
	key := AnnotationPrefix + version
	data, ok := obj.GetAnnotations()[key]
	if !ok {
		return nil
	}
	v := reflect.ValueOf(obj)
	if v.Kind() != reflect.Pointer || v.IsNil() {
		return fmt.Errorf("conversion: restoring the %s fields: %T is not a pointer", version, obj)
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
	for _, p := range paths {
		if err := restore(v.Elem(), pick(kept, p), p); err != nil {
			return fmt.Errorf("conversion: restoring the %s fields from annotation %s: %w", version, key, err)
		}
	}
	return nil
}

// decode keeps numbers as written (an int64 stays exact).
func decode(data []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	return d.Decode(v)
}

// keep returns, as JSON values, the part of the Go value v at path, nil
// when nothing set is there.
func keep(v reflect.Value, path []string) (any, error) {
	if len(path) == 0 {
		if v.IsZero() { // a pointer to a zero value is not
			return nil, nil
		}
		if !v.CanInterface() {
			return nil, errors.New("a field promoted from an unexported embedded struct cannot be kept")
		}
		data, err := json.Marshal(v.Interface())
		if err != nil {
			return nil, err
		}
		var doc any
		return doc, decode(data, &doc)
	}
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return nil, nil
		}
		v = v.Elem()
	}
	seg, rest := path[0], path[1:]
	if seg == Each {
		switch v.Kind() {
		case reflect.Slice, reflect.Array:
			out := make([]any, v.Len())
			set := false
			for i := range v.Len() {
				e, err := keep(v.Index(i), rest)
				if err != nil {
					return nil, err
				}
				if out[i] = e; e != nil {
					set = true
				}
			}
			if set {
				return out, nil
			}
		case reflect.Map:
			out := map[string]any{}
			for it := v.MapRange(); it.Next(); {
				e, err := keep(it.Value(), rest)
				if err != nil {
					return nil, err
				}
				if e != nil {
					k, err := mapKey(it.Key())
					if err != nil {
						return nil, err
					}
					out[k] = e
				}
			}
			if len(out) > 0 {
				return out, nil
			}
		}
		return nil, nil
	}
	f, ok := field(v, seg, false)
	if !ok {
		return nil, nil
	}
	e, err := keep(f, rest)
	if e == nil || err != nil {
		return nil, err
	}
	return map[string]any{seg: e}, nil
}

// pick returns the part of a kept JSON value at path (nil when none).
func pick(doc any, path []string) any {
	if len(path) == 0 || doc == nil {
		return doc
	}
	seg, rest := path[0], path[1:]
	if seg == Each {
		switch d := doc.(type) {
		case []any:
			out := make([]any, len(d))
			for i, e := range d {
				out[i] = pick(e, rest)
			}
			return out
		case map[string]any:
			out := map[string]any{}
			for k, e := range d {
				if p := pick(e, rest); p != nil {
					out[k] = p
				}
			}
			return out
		}
		return nil
	}
	d, ok := doc.(map[string]any)
	if !ok || d[seg] == nil {
		return nil
	}
	return map[string]any{seg: pick(d[seg], rest)}
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

// restore puts what keep kept at path back into the Go value v
// (addressable). A list element or a map value is restored only where v
// still has it (a list element by its index, a map value by its key); a
// nil pointer on the way to a kept field is allocated.
func restore(v reflect.Value, kept any, path []string) error {
	if kept == nil {
		return nil
	}
	if len(path) == 0 {
		if !v.CanSet() {
			return errors.New("a field promoted from an unexported embedded struct cannot be restored")
		}
		data, err := json.Marshal(kept)
		if err != nil {
			return err
		}
		fresh := reflect.New(v.Type())
		if err := json.Unmarshal(data, fresh.Interface()); err != nil {
			return err
		}
		v.Set(fresh.Elem())
		return nil
	}
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		v = v.Elem()
	}
	seg, rest := path[0], path[1:]
	if seg == Each {
		switch v.Kind() {
		case reflect.Slice, reflect.Array:
			k, _ := kept.([]any)
			for i := 0; i < v.Len() && i < len(k); i++ {
				if err := restore(v.Index(i), k[i], rest); err != nil {
					return err
				}
			}
		case reflect.Map:
			k, _ := kept.(map[string]any)
			for it := v.MapRange(); it.Next(); {
				name, err := mapKey(it.Key())
				if err != nil {
					return err
				}
				if k[name] == nil {
					continue
				}
				e := reflect.New(v.Type().Elem()).Elem()
				e.Set(it.Value())
				if err := restore(e, k[name], rest); err != nil {
					return err
				}
				v.SetMapIndex(it.Key(), e)
			}
		}
		return nil
	}
	k, ok := kept.(map[string]any)
	if !ok {
		return nil
	}
	f, ok := field(v, seg, true)
	if !ok {
		return nil
	}
	return restore(f, k[seg], rest)
}

// field is the field of the struct v that encoding/json names name: a
// field of v itself, or one promoted from an embedded struct without a
// name (allocated on the way when alloc, for a nil embedded pointer).
func field(v reflect.Value, name string, alloc bool) (reflect.Value, bool) {
	if v.Kind() != reflect.Struct {
		return reflect.Value{}, false
	}
	index, ok := jsonFields(v.Type())[name]
	if !ok {
		return reflect.Value{}, false
	}
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				if !alloc || !v.CanSet() {
					return reflect.Value{}, false
				}
				v.Set(reflect.New(v.Type().Elem()))
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v, true
}

// fieldIndexes caches jsonFields by struct type.
var fieldIndexes sync.Map

// jsonFields maps the JSON names of a struct type's fields to their
// indexes (through embedded structs without a name, the shallower field
// first, as encoding/json promotes them).
func jsonFields(t reflect.Type) map[string][]int {
	if m, ok := fieldIndexes.Load(t); ok {
		return m.(map[string][]int)
	}
	m := map[string][]int{}
	type level struct {
		t     reflect.Type
		index []int
	}
	queue := []level{{t, nil}}
	seen := map[reflect.Type]bool{}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		if seen[cur.t] {
			continue
		}
		seen[cur.t] = true
		for i := range cur.t.NumField() {
			sf := cur.t.Field(i)
			tag := sf.Tag.Get("json")
			if tag == "-" {
				continue
			}
			n, _, _ := strings.Cut(tag, ",")
			index := append(slices.Clone(cur.index), i)
			if n == "" && sf.Anonymous {
				et := sf.Type
				if et.Kind() == reflect.Pointer {
					et = et.Elem()
				}
				if et.Kind() == reflect.Struct {
					queue = append(queue, level{et, index})
					continue
				}
			}
			if !sf.IsExported() {
				continue
			}
			if n == "" {
				n = sf.Name
			}
			if _, ok := m[n]; !ok {
				m[n] = index
			}
		}
	}
	fieldIndexes.Store(t, m)
	return m
}

// mapKey is a map key as encoding/json writes it.
func mapKey(k reflect.Value) (string, error) {
	if k.Kind() == reflect.String {
		return k.String(), nil
	}
	m := reflect.MakeMap(reflect.MapOf(k.Type(), reflect.TypeOf(true)))
	m.SetMapIndex(k, reflect.ValueOf(true))
	data, err := json.Marshal(m.Interface())
	if err != nil {
		return "", err
	}
	var named map[string]bool
	if err := json.Unmarshal(data, &named); err != nil {
		return "", err
	}
	for s := range named {
		return s, nil
	}
	return "", fmt.Errorf("map key %v", k)
}
