package gen

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/modelgen/modelgen/model"
)

// A backend owns its settings: a struct type of its package (or of the
// library under gen/internal it shares with the backends that read them),
// whose exported string and bool fields with a json tag are keys of
// modelgen.yaml, each documented by its doc comment (the configuration
// reference, docs/configuration.md, prints it). The backend names the
// type and its defaults (Configurable) and reads a package's values with
// Own. The file stays flat, one key per setting, so a key names one field
// of one type. Settings that several backends read are Config's own
// fields.
//
// A field's path tag says it names where output goes: "module" (a
// directory relative to the module root), "package" (relative to the
// package directory), with ",file" for a file; an empty value of such a
// setting means its default.

// Configurable is a backend with settings of its own.
type Configurable interface {
	Backend
	// Settings returns the backend's settings with their defaults: a
	// struct value.
	Settings() any
}

// Own returns the package's settings of def's type: those the run set
// (modelgen.yaml, flags), else def, the backend's defaults.
func Own[S any](c Config, def S) S {
	if v, ok := c.own[reflect.TypeFor[S]()]; ok {
		return v.(S)
	}
	return def
}

// WithOwn returns c with s (a backend's settings struct) as its settings
// of s's type.
func (c Config) WithOwn(s any) Config {
	own := make(map[reflect.Type]any, len(c.own)+1)
	for t, v := range c.own {
		own[t] = v
	}
	own[reflect.TypeOf(s)] = s
	c.own = own
	return c
}

// Key is one setting of modelgen.yaml: a field of Config or of a
// backend's settings type.
type Key struct {
	Name  string       // the key (the field's json tag)
	Owner reflect.Type // Config or the backend's settings type
	Index int          // the field's index in Owner
	// Default is the setting's default (Config's defaults for a package
	// with neither group nor path, DefaultConfig).
	Default any
	// Path is the field's path tag ("" for a setting that is no path).
	Path string

	defaults any // Owner's defaults
}

// Field is the key's struct field.
func (k Key) Field() reflect.StructField { return k.Owner.Field(k.Index) }

// Keys lists the settings of modelgen.yaml: Config's own, then each
// settings type's of defaults (the backends' Configurable.Settings, each
// type once), in field order. A key two fields declare is an error.
func Keys(defaults []any) ([]Key, error) {
	var out []Key
	seen := map[string]reflect.Type{}
	add := func(v reflect.Value) error {
		t := v.Type()
		for i := range t.NumField() {
			name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
			if name == "" || name == "-" || !t.Field(i).IsExported() {
				continue
			}
			if prev, ok := seen[name]; ok {
				return fmt.Errorf("setting %q is declared by %s and by %s", name, prev, t)
			}
			seen[name] = t
			out = append(out, Key{Name: name, Owner: t, Index: i, Default: v.Field(i).Interface(), Path: t.Field(i).Tag.Get("path"), defaults: v.Interface()})
		}
		return nil
	}
	if err := add(reflect.ValueOf(DefaultConfig(&model.Package{}))); err != nil {
		return nil, err
	}
	types := map[reflect.Type]bool{}
	for _, d := range defaults {
		v := reflect.ValueOf(d)
		if v.Kind() != reflect.Struct {
			return nil, fmt.Errorf("settings %T: want a struct", d)
		}
		if types[v.Type()] {
			continue
		}
		types[v.Type()] = true
		if err := add(v); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Get returns the value of a setting in c (a string or a bool).
func (c Config) Get(k Key) any {
	return c.owner(k).Field(k.Index).Interface()
}

// With returns c with the setting k set to v (of the field's type).
func (c Config) With(k Key, v any) Config {
	if k.Owner == reflect.TypeFor[Config]() {
		reflect.ValueOf(&c).Elem().Field(k.Index).Set(reflect.ValueOf(v))
		return c
	}
	s := reflect.New(k.Owner).Elem()
	s.Set(c.owner(k))
	s.Field(k.Index).Set(reflect.ValueOf(v))
	return c.WithOwn(s.Interface())
}

// owner is the struct that holds k in c: c itself, or the backend's
// settings (their defaults when the run set none).
func (c Config) owner(k Key) reflect.Value {
	if k.Owner == reflect.TypeFor[Config]() {
		return reflect.ValueOf(c)
	}
	if v, ok := c.own[k.Owner]; ok {
		return reflect.ValueOf(v)
	}
	return reflect.ValueOf(k.defaults)
}
