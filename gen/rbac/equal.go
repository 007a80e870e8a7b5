package rbac

import (
	"fmt"
	"go/types"
	"path"
	"strings"

	"github.com/dave/jennifer/jen"
)

// equalizer writes the comparisons of leaf fields without reflection: ==
// where Go's == is value equality, the type's own Equal method where it has
// one (time.Time, metav1.Time, resource.Quantity), slices.Equal and
// maps.Equal for containers of such values, and a generated function for
// everything else, field by field. nil and empty slices and maps are equal,
// as JSON clients see them with omitempty; for a field without omitempty
// the diff also compares their nil-ness (null against [] or {}).
type equalizer struct {
	g     *goFile
	names map[string]string // type string -> function name
	used  map[string]bool
	funcs []jen.Code
}

func newEqualizer(g *goFile) *equalizer {
	return &equalizer{g: g, names: map[string]string{}, used: map[string]bool{}}
}

// notEqual renders a boolean expression that holds when two addressable
// values differ.
func (e *equalizer) notEqual(a, b *jen.Statement, t types.Type) (jen.Code, error) {
	if _, hasEqual := equalMethod(t); !hasEqual && valueComparable(t) {
		return a.Clone().Op("!=").Add(b), nil
	}
	eq, err := e.equal(a, b, t)
	if err != nil {
		return nil, err
	}
	return jen.Op("!").Add(eq), nil
}

// equalElems compares what two non-nil pointers point to. An Equal method
// that takes a pointer gets the pointers themselves, not &(*b).
func (e *equalizer) equalElems(a, b *jen.Statement, elem types.Type) (jen.Code, error) {
	if ptrArg, ok := equalMethod(elem); ok && ptrArg {
		return a.Clone().Dot("Equal").Call(b.Clone()), nil
	}
	return e.equal(jen.Parens(jen.Op("*").Add(a.Clone())), jen.Parens(jen.Op("*").Add(b.Clone())), elem)
}

// equal renders a boolean expression comparing two addressable values.
func (e *equalizer) equal(a, b *jen.Statement, t types.Type) (jen.Code, error) {
	if t == nil {
		return nil, fmt.Errorf("no type information")
	}
	if ptrArg, ok := equalMethod(t); ok {
		if ptrArg {
			return a.Clone().Dot("Equal").Call(jen.Op("&").Add(b)), nil
		}
		return a.Clone().Dot("Equal").Call(b), nil
	}
	if valueComparable(t) {
		return a.Clone().Op("==").Add(b), nil
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		inner, err := e.equalElems(a, b, u.Elem())
		if err != nil {
			return nil, err
		}
		return jen.Parens(jen.Parens(a.Clone().Op("==").Nil()).Op("==").Parens(b.Clone().Op("==").Nil()).Op("&&").
			Parens(a.Clone().Op("==").Nil().Op("||").Add(inner))), nil
	case *types.Slice:
		if valueComparable(u.Elem()) {
			return jen.Qual("slices", "Equal").Call(a, b), nil
		}
	case *types.Map:
		if valueComparable(u.Elem()) {
			return jen.Qual("maps", "Equal").Call(a, b), nil
		}
	case *types.Interface, *types.Chan, *types.Signature:
		return nil, fmt.Errorf("cannot compare %s without reflection; give the field a type with an Equal method", t)
	}
	name, err := e.helper(t)
	if err != nil {
		return nil, err
	}
	return jen.Id(name).Call(a, b), nil
}

// helper returns the name of the generated function comparing two values of
// t, generating it the first time.
func (e *equalizer) helper(t types.Type) (string, error) {
	key := t.String()
	if name, ok := e.names[key]; ok {
		return name, nil
	}
	name := "rbacEqual" + e.mangle(t)
	for base, i := name, 2; e.used[name]; i++ {
		name = fmt.Sprintf("%s%d", base, i)
	}
	e.used[name], e.names[key] = true, name
	code, err := e.typeCode(t)
	if err != nil {
		return "", err
	}
	body, err := e.body(t)
	if err != nil {
		return "", err
	}
	e.funcs = append(e.funcs, jen.Func().Id(name).Params(jen.List(jen.Id("a"), jen.Id("b")).Add(code)).Bool().Block(body...))
	return name, nil
}

func (e *equalizer) body(t types.Type) ([]jen.Code, error) {
	falseIf := func(differ jen.Code) jen.Code {
		return jen.If(differ).Block(jen.Return(jen.False()))
	}
	switch u := t.Underlying().(type) {
	case *types.Slice, *types.Array:
		elem := u.(interface{ Elem() types.Type }).Elem()
		inner, err := e.notEqual(jen.Id("a").Index(jen.Id("i")), jen.Id("b").Index(jen.Id("i")), elem)
		if err != nil {
			return nil, err
		}
		return []jen.Code{
			jen.If(jen.Len(jen.Id("a")).Op("!=").Len(jen.Id("b"))).Block(jen.Return(jen.False())),
			jen.For(jen.Id("i").Op(":=").Range().Id("a")).Block(falseIf(inner)),
			jen.Return(jen.True()),
		}, nil
	case *types.Map:
		inner, err := e.notEqual(jen.Id("va"), jen.Id("vb"), u.Elem())
		if err != nil {
			return nil, err
		}
		return []jen.Code{
			jen.If(jen.Len(jen.Id("a")).Op("!=").Len(jen.Id("b"))).Block(jen.Return(jen.False())),
			jen.For(jen.List(jen.Id("k"), jen.Id("va")).Op(":=").Range().Id("a")).Block(
				jen.List(jen.Id("vb"), jen.Id("ok")).Op(":=").Id("b").Index(jen.Id("k")),
				jen.If(jen.Op("!").Id("ok")).Block(jen.Return(jen.False())),
				falseIf(inner),
			),
			jen.Return(jen.True()),
		}, nil
	case *types.Struct:
		return e.structBody(t, u)
	}
	return nil, fmt.Errorf("cannot compare %s without reflection", t)
}

func (e *equalizer) structBody(t types.Type, st *types.Struct) ([]jen.Code, error) {
	var body []jen.Code
	for i := range st.NumFields() {
		f := st.Field(i)
		if !f.Exported() && !e.local(f.Pkg()) {
			return nil, fmt.Errorf("cannot compare %s without reflection: it has unexported fields, no Equal method, and == does not compare it by value", t)
		}
		inner, err := e.notEqual(jen.Id("a").Dot(f.Name()), jen.Id("b").Dot(f.Name()), f.Type())
		if err != nil {
			return nil, err
		}
		body = append(body, jen.If(inner).Block(jen.Return(jen.False())))
	}
	return append(body, jen.Return(jen.True())), nil
}

func (e *equalizer) local(p *types.Package) bool { return p != nil && p.Path() == e.g.pkg.Path }

// emit adds the generated comparison functions to the file, in the order
// they were first needed.
func (e *equalizer) emit(f *jen.File) {
	for _, fn := range e.funcs {
		f.Line()
		f.Add(fn)
	}
}

// mangle names a type for a function name: metav1.Condition ->
// Slice_v1_Condition for []metav1.Condition.
func (e *equalizer) mangle(t types.Type) string {
	switch x := types.Unalias(t).(type) {
	case *types.Named:
		p := x.Obj().Pkg()
		if e.local(p) || p == nil {
			return x.Obj().Name()
		}
		name := p.Name()
		if versionElem.MatchString(path.Base(p.Path())) {
			name = path.Base(path.Dir(p.Path())) + path.Base(p.Path())
		}
		return "_" + name + "_" + x.Obj().Name()
	case *types.Basic:
		return x.Name()
	case *types.Pointer:
		return "Ptr" + e.mangle(x.Elem())
	case *types.Slice:
		return "Slice" + e.mangle(x.Elem())
	case *types.Array:
		return fmt.Sprintf("Array%d%s", x.Len(), e.mangle(x.Elem()))
	case *types.Map:
		return "Map" + e.mangle(x.Key()) + "_" + e.mangle(x.Elem())
	}
	return "Struct"
}

// typeCode spells a type in the generated package.
func (e *equalizer) typeCode(t types.Type) (*jen.Statement, error) {
	switch x := t.(type) {
	case *types.Alias:
		obj := x.Obj()
		if obj.Pkg() == nil {
			return jen.Id(obj.Name()), nil
		}
		return e.named(obj, x.TypeArgs())
	case *types.Named:
		return e.named(x.Obj(), x.TypeArgs())
	case *types.Basic:
		return jen.Id(x.Name()), nil
	case *types.Pointer:
		elem, err := e.typeCode(x.Elem())
		return jen.Op("*").Add(elem), err
	case *types.Slice:
		elem, err := e.typeCode(x.Elem())
		return jen.Index().Add(elem), err
	case *types.Array:
		elem, err := e.typeCode(x.Elem())
		return jen.Index(jen.Lit(int(x.Len()))).Add(elem), err
	case *types.Map:
		key, err := e.typeCode(x.Key())
		if err != nil {
			return nil, err
		}
		elem, err := e.typeCode(x.Elem())
		return jen.Map(key).Add(elem), err
	case *types.Interface:
		if x.Empty() {
			return jen.Any(), nil
		}
	case *types.Struct:
		var fields []jen.Code
		for i := range x.NumFields() {
			f := x.Field(i)
			code, err := e.typeCode(f.Type())
			if err != nil {
				return nil, err
			}
			if f.Embedded() {
				fields = append(fields, code)
			} else {
				fields = append(fields, jen.Id(f.Name()).Add(code))
			}
		}
		return jen.Struct(fields...), nil
	}
	return nil, fmt.Errorf("cannot spell type %s in generated code", t)
}

func (e *equalizer) named(obj *types.TypeName, args *types.TypeList) (*jen.Statement, error) {
	if obj.Pkg() == nil {
		return jen.Id(obj.Name()), nil
	}
	if !obj.Exported() && !e.local(obj.Pkg()) {
		return nil, fmt.Errorf("cannot spell unexported type %s.%s outside its package", obj.Pkg().Path(), obj.Name())
	}
	s := jen.Qual(obj.Pkg().Path(), obj.Name())
	if args.Len() == 0 {
		return s, nil
	}
	var list []jen.Code
	for i := range args.Len() {
		code, err := e.typeCode(args.At(i))
		if err != nil {
			return nil, err
		}
		list = append(list, code)
	}
	return s.Index(list...), nil
}

// equalMethod finds `Equal(T) bool` or `Equal(*T) bool` on a named type.
func equalMethod(t types.Type) (ptrArg, ok bool) {
	named, isNamed := types.Unalias(t).(*types.Named)
	if !isNamed {
		return false, false
	}
	sel := types.NewMethodSet(types.NewPointer(named)).Lookup(nil, "Equal")
	if sel == nil {
		return false, false
	}
	sig, _ := sel.Type().(*types.Signature)
	if sig == nil || sig.Params().Len() != 1 || sig.Results().Len() != 1 || !types.Identical(sig.Results().At(0).Type(), types.Typ[types.Bool]) {
		return false, false
	}
	switch p := sig.Params().At(0).Type(); {
	case types.Identical(p, named):
		return false, true
	case types.Identical(p, types.NewPointer(named)):
		return true, true
	}
	return false, false
}

// valueComparable reports whether == compares values of t by value: no
// pointer, interface, channel or function anywhere inside.
func valueComparable(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic:
		return u.Kind() != types.UnsafePointer && !strings.HasPrefix(u.Name(), "untyped")
	case *types.Array:
		return valueComparable(u.Elem())
	case *types.Struct:
		for i := range u.NumFields() {
			if !valueComparable(u.Field(i).Type()) {
				return false
			}
		}
		return true
	}
	return false
}
