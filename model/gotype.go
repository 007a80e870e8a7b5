package model

import (
	"go/types"

	"golang.org/x/tools/go/types/typeutil"
)

// GoType is a Go type as the type checker saw it, for the backends that
// spell Go types in generated code and compare values with Go's own rules
// (gen/rbac): how a type is written, which package declares a named type,
// what is under it, the fields of a struct (unexported and embedded ones
// too) and the Equal method a named type has. TypeRef says what a type is
// in JSON; GoType says what it is in Go. Load builds the graph once per
// named type (a recursive type points back at itself), so backends never
// read go/types.
type GoType struct {
	Kind GoKind
	// String is the type as go/types prints it, packages by full path
	// ("[]k8s.io/apimachinery/pkg/apis/meta/v1.Condition"): for messages
	// and as a key.
	String string
	// Name is a named type's or an alias's name, or a basic type's
	// ("string", "int64").
	Name string
	// PkgPath and PkgName are the declaring package of a named type or an
	// alias; empty for the predeclared ones (error, any, comparable).
	PkgPath, PkgName string
	// Exported reports an exported named type or alias.
	Exported bool
	// TypeArgs are an instantiated generic type's (or alias's) arguments;
	// TypeParams counts the parameters of a generic type not instantiated.
	TypeArgs   []*GoType
	TypeParams int
	// Under is what a named type (and a type parameter, whose constraint it
	// is) is defined as; for an alias it is the type it stands for.
	Under *GoType
	// Elem is the element of a pointer, slice, array, map or channel; Key
	// is a map's key; Len is an array's length.
	Elem, Key *GoType
	Len       int64
	// Fields are a struct's fields in declaration order.
	Fields []GoField
	// Basic says which kind of basic type a GoBasic is.
	Basic BasicKind
	// Empty reports the empty interface (any).
	Empty bool
	// Equal says whether a named type has a method `Equal(T) bool` or
	// `Equal(*T) bool` (declared on T or *T, or promoted).
	Equal EqualMethod
}

// GoKind is the kind of a GoType.
type GoKind int

const (
	GoOther     GoKind = iota // a type parameter or anything else (String says what)
	GoBasic                   // string, bool, a number, unsafe.Pointer
	GoNamed                   // a defined type
	GoAlias                   // an alias (type A = B)
	GoPointer                 // *T
	GoSlice                   // []T
	GoArray                   // [N]T
	GoMap                     // map[K]V
	GoStruct                  // struct{...}
	GoInterface               // interface{...}
	GoChan                    // chan T
	GoFunc                    // func(...)
)

// BasicKind sorts the basic types.
type BasicKind int

const (
	BasicNumber        BasicKind = iota // integers, floats, complex numbers
	BasicString                         // string
	BasicBool                           // bool
	BasicUnsafePointer                  // unsafe.Pointer
	BasicUntyped                        // an untyped constant's type (never a field's)
)

// EqualMethod says how a named type's Equal method takes its argument.
type EqualMethod int

const (
	NoEqual      EqualMethod = iota
	EqualValue               // Equal(T) bool
	EqualPointer             // Equal(*T) bool
)

// GoField is one field of a struct.
type GoField struct {
	Name     string
	Embedded bool
	Exported bool
	// PkgPath is the package the field was declared in (what an unexported
	// field's name belongs to).
	PkgPath string
	Type    *GoType
}

// Unalias follows aliases to the type they stand for.
func (t *GoType) Unalias() *GoType {
	for t != nil && t.Kind == GoAlias {
		t = t.Under
	}
	return t
}

// Underlying is the type under a named type (or an alias, or a type
// parameter), and any other type itself, as go/types' Underlying.
func (t *GoType) Underlying() *GoType {
	t = t.Unalias()
	for t != nil && (t.Kind == GoNamed || t.Kind == GoOther && t.Under != nil) {
		t = t.Under.Unalias()
	}
	return t
}

// goTypes builds the GoType of every named type of the model.
func goTypes(m *Model, msets *typeutil.MethodSetCache) {
	c := goTypeConverter{named: map[string]*GoType{}, basic: map[*types.Basic]*GoType{}, composite: map[compositeKey]*GoType{}, msets: msets}
	for _, pk := range m.Packages {
		if pk.Loaded == nil || pk.Loaded.Types == nil {
			continue
		}
		for _, t := range pk.Types {
			if obj, ok := pk.Loaded.Types.Scope().Lookup(t.Name).(*types.TypeName); ok {
				t.Go = c.of(obj.Type())
			}
		}
	}
}

// goTypeConverter turns go/types types into GoTypes, each named type once
// (by its full name, so a recursive type ends at itself). A basic type, and
// a pointer, slice, array, map or channel of the same element, are one
// GoType too: go/types makes one per occurrence, and a module of thousands
// of kinds has hundreds of thousands of fields of type *string.
type goTypeConverter struct {
	named     map[string]*GoType
	basic     map[*types.Basic]*GoType
	composite map[compositeKey]*GoType
	msets     *typeutil.MethodSetCache
}

// compositeKey names a pointer, slice, array, map or channel by its kind
// and its parts, which are themselves one GoType each.
type compositeKey struct {
	kind      GoKind
	elem, key *GoType
	len       int64
	dir       types.ChanDir
}

// composite1 is the one GoType of its key, made by mk the first time.
func (c *goTypeConverter) composite1(k compositeKey, mk func() *GoType) *GoType {
	if g, ok := c.composite[k]; ok {
		return g
	}
	g := mk()
	c.composite[k] = g
	return g
}

func (c *goTypeConverter) of(t types.Type) *GoType {
	switch x := t.(type) {
	case *types.Named:
		return c.namedType(x)
	case *types.Alias:
		return c.alias(x)
	case *types.Basic:
		if g, ok := c.basic[x]; ok {
			return g
		}
		g := &GoType{Kind: GoBasic, String: x.String(), Name: x.Name(), Basic: basicKind(x)}
		c.basic[x] = g
		return g
	case *types.Pointer:
		elem := c.of(x.Elem())
		return c.composite1(compositeKey{kind: GoPointer, elem: elem}, func() *GoType {
			return &GoType{Kind: GoPointer, String: x.String(), Elem: elem}
		})
	case *types.Slice:
		elem := c.of(x.Elem())
		return c.composite1(compositeKey{kind: GoSlice, elem: elem}, func() *GoType {
			return &GoType{Kind: GoSlice, String: x.String(), Elem: elem}
		})
	case *types.Array:
		elem := c.of(x.Elem())
		return c.composite1(compositeKey{kind: GoArray, elem: elem, len: x.Len()}, func() *GoType {
			return &GoType{Kind: GoArray, String: x.String(), Elem: elem, Len: x.Len()}
		})
	case *types.Map:
		key, elem := c.of(x.Key()), c.of(x.Elem())
		return c.composite1(compositeKey{kind: GoMap, key: key, elem: elem}, func() *GoType {
			return &GoType{Kind: GoMap, String: x.String(), Key: key, Elem: elem}
		})
	case *types.Chan:
		elem := c.of(x.Elem())
		return c.composite1(compositeKey{kind: GoChan, elem: elem, dir: x.Dir()}, func() *GoType {
			return &GoType{Kind: GoChan, String: x.String(), Elem: elem}
		})
	case *types.Signature:
		return &GoType{Kind: GoFunc, String: x.String()}
	case *types.Interface:
		return &GoType{Kind: GoInterface, String: x.String(), Empty: x.Empty()}
	case *types.Struct:
		return c.structType(x)
	case *types.TypeParam:
		return &GoType{Kind: GoOther, String: x.String(), Name: x.Obj().Name(), Under: c.of(x.Underlying())}
	}
	return &GoType{Kind: GoOther, String: t.String()}
}

func (c *goTypeConverter) namedType(x *types.Named) *GoType {
	key := types.TypeString(x, nil)
	if g, ok := c.named[key]; ok {
		return g
	}
	obj := x.Obj()
	g := &GoType{Kind: GoNamed, String: key, Name: obj.Name(), Exported: obj.Exported(), TypeParams: x.TypeParams().Len()}
	c.named[key] = g // before the underlying type, which may lead back here
	if p := obj.Pkg(); p != nil {
		g.PkgPath, g.PkgName = p.Path(), p.Name()
	}
	for i := range x.TypeArgs().Len() {
		g.TypeArgs = append(g.TypeArgs, c.of(x.TypeArgs().At(i)))
	}
	g.Equal = equalMethod(c.msets, x)
	g.Under = c.of(x.Underlying())
	return g
}

func (c *goTypeConverter) alias(x *types.Alias) *GoType {
	obj := x.Obj()
	g := &GoType{Kind: GoAlias, String: x.String(), Name: obj.Name(), Exported: obj.Exported()}
	if p := obj.Pkg(); p != nil {
		g.PkgPath, g.PkgName = p.Path(), p.Name()
	}
	for i := range x.TypeArgs().Len() {
		g.TypeArgs = append(g.TypeArgs, c.of(x.TypeArgs().At(i)))
	}
	g.Under = c.of(types.Unalias(x))
	return g
}

func (c *goTypeConverter) structType(x *types.Struct) *GoType {
	g := &GoType{Kind: GoStruct, String: x.String()}
	for i := range x.NumFields() {
		f := x.Field(i)
		gf := GoField{Name: f.Name(), Embedded: f.Embedded(), Exported: f.Exported(), Type: c.of(f.Type())}
		if f.Pkg() != nil {
			gf.PkgPath = f.Pkg().Path()
		}
		g.Fields = append(g.Fields, gf)
	}
	return g
}

func basicKind(x *types.Basic) BasicKind {
	info := x.Info()
	switch {
	case info&types.IsUntyped != 0:
		return BasicUntyped
	case x.Kind() == types.UnsafePointer:
		return BasicUnsafePointer
	case info&types.IsString != 0:
		return BasicString
	case info&types.IsBoolean != 0:
		return BasicBool
	}
	return BasicNumber
}

// equalMethod finds `Equal(T) bool` or `Equal(*T) bool` on a named type.
func equalMethod(msets *typeutil.MethodSetCache, named *types.Named) EqualMethod {
	sel := msets.MethodSet(types.NewPointer(named)).Lookup(nil, "Equal")
	if sel == nil {
		return NoEqual
	}
	sig, _ := sel.Type().(*types.Signature)
	if sig == nil || sig.Params().Len() != 1 || sig.Results().Len() != 1 || !types.Identical(sig.Results().At(0).Type(), types.Typ[types.Bool]) {
		return NoEqual
	}
	switch p := sig.Params().At(0).Type(); {
	case types.Identical(p, named):
		return EqualValue
	case types.Identical(p, types.NewPointer(named)):
		return EqualPointer
	}
	return NoEqual
}
