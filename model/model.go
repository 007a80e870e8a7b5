package model

import (
	"go/token"
	"sort"

	"sigs.k8s.io/controller-tools/pkg/loader"
	"sigs.k8s.io/controller-tools/pkg/markers"
)

// Model is the intermediate representation every backend reads. It is built
// once by Load and never changed by a backend.
type Model struct {
	// Packages are the packages named on the command line that hold at
	// least one selected type, sorted by import path.
	Packages []*Package
	// Diags are all diagnostics found while loading (errors and warnings).
	Diags Diagnostics
	// Machines are the checked state machines, in type order (one per
	// struct at most; a tag with errors gives none).
	Machines []*Machine
	// Access holds the resolved access rules of every governed type.
	Access *AccessRules
	// RuntimeOnly are the checks no schema carries (validator enforces
	// them at run time), each warned once by Load.
	RuntimeOnly []RuntimeOnly

	// Loaded are the packages as controller-tools loaded them; backends that
	// reuse controller-tools' CRD parser (gen/crd, schema) read them instead
	// of loading again.
	Loaded    []*loader.Package
	Collector *markers.Collector
	// Checker type-checks loaded packages (and what they need) once.
	Checker *loader.TypeChecker

	// Dir and Patterns are the load's (Config.Dir, Config.Patterns): what
	// the run names, which tells a backend whether it loaded every package
	// a setting names (gen.Covers).
	Dir      string
	Patterns []string

	// fset positions every file Load parsed (FileSet).
	fset *token.FileSet
}

// Package is one Go package with selected types.
type Package struct {
	Path    string // import path
	Name    string // package name
	Dir     string // directory of the package's files
	Module  string // module path ("" outside a module)
	ModDir  string // module root directory
	Group   string // +groupName (resource packages)
	Version string // +versionName, or the package name (resource packages)
	Types   []*Type
	Loaded  *loader.Package
}

// TypeKind says what a named type is.
type TypeKind int

const (
	TypeStruct TypeKind = iota // a struct
	TypeScalar                 // a named string, number or bool (an enum when it has constants)
	TypeOther                  // a named slice, map or anything else
)

// Type is a named type declared in a loaded package.
type Type struct {
	Name     string
	Pkg      *Package
	Pos      Pos
	Doc      string
	TypeKind TypeKind
	// Root is set for Kubernetes resource roots (+kubebuilder:object:root=true
	// on a type with TypeMeta and ObjectMeta); Model for +modelgen:model.
	Root, Model bool
	// Resource describes a root that is a custom resource (nil for a List
	// type or a plain model).
	Resource *Resource
	Fields   []*Field // struct fields in declaration order (TypeStruct)
	// Underlying is the type under a TypeScalar or TypeOther.
	Underlying *TypeRef
	// Enum holds the typed constants declared for a TypeScalar, in
	// declaration order.
	Enum []EnumValue
	// Markers are the kubebuilder and modelgen markers on the type.
	Markers markers.MarkerValues
	// Access is the type's resolved access rules, nil when its package is
	// not governed (no access tag or marker).
	Access *TypeAccess
	// generic is set on a type with type parameters.
	generic bool
	// Methods are the names of the methods declared on the type or its
	// pointer (promoted ones included), sorted: generated names must not
	// clash with them.
	Methods []string
	// Go is the type as Go sees it (its fields, unexported ones included,
	// how to spell them, how to compare them), for backends that generate
	// Go code over the type's values.
	Go *GoType
}

// QualifiedName is "pkgname.Name".
func (t *Type) QualifiedName() string { return t.Pkg.Name + "." + t.Name }

// Field looks a field up by its Go name.
func (t *Type) Field(goName string) *Field {
	for _, f := range t.Fields {
		if f.GoName == goName {
			return f
		}
	}
	return nil
}

// Resource is what a custom resource root adds to its type.
type Resource struct {
	Kind       string
	Plural     string
	Singular   string
	Namespaced bool
	ShortNames []string
	Status     bool // has a status subresource
	Scale      bool
}

// EnumValue is one typed constant.
type EnumValue struct {
	GoName string
	Value  string // the constant's value as Go would print it (strings unquoted)
	Doc    string
	Pos    Pos
}

// Field is one struct field.
type Field struct {
	GoName    string
	JSONName  string // "" for an inline (embedded, `json:",inline"`) field
	Inline    bool
	OmitEmpty bool
	OmitZero  bool
	Skip      bool // json:"-"
	Embedded  bool
	Type      *TypeRef
	Source    string // the field's type as written
	Doc       string
	Pos       Pos // the field name (or the embedded type)
	Markers   markers.MarkerValues
	// Index is the field's place among the struct's declared fields (one
	// per name), as controller-tools lists them.
	Index int

	// Validate is the parsed validate tag, nil when the field has none.
	Validate *Rules
	// StateTag and AccessTag are the raw state and access tags, kept for
	// the positions of messages; Machine and Access are what they mean.
	StateTag  Tag
	AccessTag Tag
	// Machine is the checked state machine the field's state tag declares,
	// nil when it has none or the tag has errors.
	Machine *Machine
	// Access is the field's resolved access rule, nil when its package is
	// not governed.
	Access *FieldAccess
	// Tags are all struct tag keys and values, in the tag's order.
	Tags Tags
}

// Tags are a field's struct tags, one per key in the tag's order (of a key
// given twice, the first, as reflect.StructTag.Get reads it). A slice: a
// field has a few, and a map of them cost every field of a large module
// hundreds of bytes.
type Tags []Tag

// Get is the tag with the key, and whether the field has it.
func (ts Tags) Get(key string) (Tag, bool) {
	for _, t := range ts {
		if t.Key == key {
			return t, true
		}
	}
	return Tag{}, false
}

// Tag is one struct tag value with the position of its first character.
type Tag struct {
	Key   string
	Value string
	Pos   Pos
	Set   bool
}

// At is the position of a byte offset inside the tag value.
func (t Tag) At(offset int) Pos {
	p := t.Pos
	p.Col += offset
	return p
}

// Kind is the Go kind of a value as it travels through JSON.
type Kind int

const (
	KindInvalid Kind = iota
	KindString
	KindBool
	KindInt // Bits says the width; Unsigned for uint*
	KindFloat
	KindSlice // also arrays
	KindMap
	KindPointer
	KindStruct
	KindInterface
	KindTime         // time.Time, metav1.Time, metav1.MicroTime
	KindDuration     // time.Duration (an integer of nanoseconds in JSON)
	KindMetaDuration // metav1.Duration (a string such as "1h30m")
	KindQuantity     // resource.Quantity
	KindIntOrString  // intstr.IntOrString
	KindBytes        // []byte (base64 in JSON)
	KindRaw          // runtime.RawExtension, apiextensions JSON, json.RawMessage
)

var kindNames = [...]string{"invalid", "string", "bool", "integer", "float", "slice", "map", "pointer", "struct", "interface", "time", "duration", "duration", "quantity", "int-or-string", "bytes", "raw"}

func (k Kind) String() string { return kindNames[k] }

// TypeRef is the type of a field, an element, a key or a named type's underlying type.
type TypeRef struct {
	Kind     Kind
	Bits     int      // 8, 16, 32, 64 for KindInt and KindFloat (0 means int/uint: 64)
	Unsigned bool     // uint*
	Elem     *TypeRef // KindSlice, KindMap (value), KindPointer
	Key      *TypeRef // KindMap
	Len      int      // array length, -1 for a slice
	// Named is the declared type when the reference names a loaded type
	// (always for KindStruct declared in a loaded package; for scalars with
	// a named type such as an enum).
	Named *Type
	// GoType is the Go spelling, for messages and generated code ("[]string",
	// "metav1.Time", "PaymentPhase").
	GoType string
	// ImportPath and TypeName identify a named type from any package.
	ImportPath, TypeName string
	// Under is the Go spelling of the underlying type, for messages.
	Under string
	// TextKey is set on a named type that implements encoding.TextMarshaler
	// (encoding/json accepts it as a map key).
	TextKey bool
	// Generic is set on an instantiated generic type.
	Generic bool
}

// Deref follows pointers.
func (r *TypeRef) Deref() *TypeRef {
	for r != nil && r.Kind == KindPointer {
		r = r.Elem
	}
	return r
}

// Nillable reports whether the JSON value null decodes to a Go nil.
func (r *TypeRef) Nillable() bool {
	switch r.Kind {
	case KindPointer, KindSlice, KindMap, KindInterface, KindBytes, KindRaw:
		return r.Kind != KindSlice || r.Len < 0
	}
	return false
}

// IsNumber reports integer and float kinds.
func (r *TypeRef) IsNumber() bool {
	return r.Kind == KindInt || r.Kind == KindFloat || r.Kind == KindDuration
}

// Rules is a parsed and resolved validate tag.
type Rules struct {
	Raw Tag
	// Skip is the tag "-": validator ignores the field (Root is empty).
	Skip bool
	// StructOnly and NoStructLevel are structonly and nostructlevel on the
	// field itself: validator checks a struct field's own tag only, not
	// the fields inside it (nostructlevel: not its struct-level functions).
	StructOnly, NoStructLevel bool
	Root                      *Level
}

// Omit says when validator skips the checks after a level's omit keyword.
type Omit int

const (
	OmitNever Omit = iota // no omit keyword: every check runs
	OmitEmpty             // omitempty: the zero value (or nil) passes
	OmitNil               // omitnil: nil passes, a non-nil zero value is checked
	OmitZero              // omitzero: the zero value passes, nil slices and maps too
)

// String is the keyword as written ("" for OmitNever).
func (o Omit) String() string {
	return [...]string{"", "omitempty", "omitnil", "omitzero"}[o]
}

// Level is the resolved form of one level of a validate tag: the checks for
// one value (the field, or after a dive each element, key or value).
type Level struct {
	Type *TypeRef // the type this level checks
	Omit Omit
	// Guarded is the index of the first check the omit keyword guards
	// (checks before it run on every value).
	Guarded int
	Checks  []*Check
	Keys    *Level
	Dive    *Level
	Pos     Pos
}

// Check is one comma-separated check: all alternatives, at least one must hold.
type Check struct {
	Or  []*Use
	Pos Pos
}

// Use is one keyword applied to one value, with its parsed parameter.
type Use struct {
	Keyword Keyword
	Name    string // as written (an alias name when it came from an alias)
	Param   string
	Value   any // parsed parameter (float64, int64, []string, field path...)
	Pos     Pos
	Type    *TypeRef // the type of the value it checks
	Owner   *Type    // the struct that holds the field
	Field   *Field   // the field whose tag holds the use
	Dived   bool     // the use is after a dive (checks elements, keys or values)
}

// Has reports whether a check with this single keyword (no alternatives) is on the level.
func (l *Level) Has(name string) *Use {
	if l == nil {
		return nil
	}
	for _, c := range l.Checks {
		if len(c.Or) == 1 && c.Or[0].Keyword.Name() == name {
			return c.Or[0]
		}
	}
	return nil
}

// Required reports whether the field carries `required` (alone, not in an alternative).
func (f *Field) Required() bool { return f.Validate != nil && f.Validate.Root.Has("required") != nil }

// SortedTypes returns all selected types of all packages.
func (m *Model) SortedTypes() []*Type {
	var out []*Type
	for _, p := range m.Packages {
		out = append(out, p.Types...)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Pkg.Path != out[j].Pkg.Path {
			return out[i].Pkg.Path < out[j].Pkg.Path
		}
		return out[i].Name < out[j].Name
	})
	return out
}
