package rbac

import (
	"fmt"
	"path"

	"github.com/dave/jennifer/jen"

	"github.com/modelgen/modelgen/model"
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
func (e *equalizer) notEqual(a, b *jen.Statement, t *model.GoType) (jen.Code, error) {
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
func (e *equalizer) equalElems(a, b *jen.Statement, elem *model.GoType) (jen.Code, error) {
	if ptrArg, ok := equalMethod(elem); ok && ptrArg {
		return a.Clone().Dot("Equal").Call(b.Clone()), nil
	}
	return e.equal(jen.Parens(jen.Op("*").Add(a.Clone())), jen.Parens(jen.Op("*").Add(b.Clone())), elem)
}

// equal renders a boolean expression comparing two addressable values.
func (e *equalizer) equal(a, b *jen.Statement, t *model.GoType) (jen.Code, error) {
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
	switch u := t.Underlying(); u.Kind {
	case model.GoPointer:
		inner, err := e.equalElems(a, b, u.Elem)
		if err != nil {
			return nil, err
		}
		return jen.Parens(jen.Parens(a.Clone().Op("==").Nil()).Op("==").Parens(b.Clone().Op("==").Nil()).Op("&&").
			Parens(a.Clone().Op("==").Nil().Op("||").Add(inner))), nil
	case model.GoSlice:
		if valueComparable(u.Elem) {
			return jen.Qual("slices", "Equal").Call(a, b), nil
		}
	case model.GoMap:
		if valueComparable(u.Elem) {
			return jen.Qual("maps", "Equal").Call(a, b), nil
		}
	case model.GoInterface, model.GoChan, model.GoFunc:
		return nil, fmt.Errorf("cannot compare %s without reflection; give the field a type with an Equal method", t.String)
	}
	name, err := e.helper(t)
	if err != nil {
		return nil, err
	}
	return jen.Id(name).Call(a, b), nil
}

// helper returns the name of the generated function comparing two values of
// t, generating it the first time.
func (e *equalizer) helper(t *model.GoType) (string, error) {
	key := t.String
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

func (e *equalizer) body(t *model.GoType) ([]jen.Code, error) {
	falseIf := func(differ jen.Code) jen.Code {
		return jen.If(differ).Block(jen.Return(jen.False()))
	}
	switch u := t.Underlying(); u.Kind {
	case model.GoSlice, model.GoArray:
		inner, err := e.notEqual(jen.Id("a").Index(jen.Id("i")), jen.Id("b").Index(jen.Id("i")), u.Elem)
		if err != nil {
			return nil, err
		}
		return []jen.Code{
			jen.If(jen.Len(jen.Id("a")).Op("!=").Len(jen.Id("b"))).Block(jen.Return(jen.False())),
			jen.For(jen.Id("i").Op(":=").Range().Id("a")).Block(falseIf(inner)),
			jen.Return(jen.True()),
		}, nil
	case model.GoMap:
		inner, err := e.notEqual(jen.Id("va"), jen.Id("vb"), u.Elem)
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
	case model.GoStruct:
		return e.structBody(t, u)
	}
	return nil, fmt.Errorf("cannot compare %s without reflection", t.String)
}

func (e *equalizer) structBody(t, st *model.GoType) ([]jen.Code, error) {
	var body []jen.Code
	for _, f := range st.Fields {
		if !f.Exported && !e.local(f.PkgPath) {
			return nil, fmt.Errorf("cannot compare %s without reflection: it has unexported fields, no Equal method, and == does not compare it by value", t.String)
		}
		inner, err := e.notEqual(jen.Id("a").Dot(f.Name), jen.Id("b").Dot(f.Name), f.Type)
		if err != nil {
			return nil, err
		}
		body = append(body, jen.If(inner).Block(jen.Return(jen.False())))
	}
	return append(body, jen.Return(jen.True())), nil
}

// local reports the generated file's own package.
func (e *equalizer) local(pkgPath string) bool { return pkgPath != "" && pkgPath == e.g.pkg.Path }

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
func (e *equalizer) mangle(t *model.GoType) string {
	switch x := t.Unalias(); x.Kind {
	case model.GoNamed:
		if e.local(x.PkgPath) || x.PkgPath == "" {
			return x.Name
		}
		name := x.PkgName
		if versionElem.MatchString(path.Base(x.PkgPath)) {
			name = path.Base(path.Dir(x.PkgPath)) + path.Base(x.PkgPath)
		}
		return "_" + name + "_" + x.Name
	case model.GoBasic:
		return x.Name
	case model.GoPointer:
		return "Ptr" + e.mangle(x.Elem)
	case model.GoSlice:
		return "Slice" + e.mangle(x.Elem)
	case model.GoArray:
		return fmt.Sprintf("Array%d%s", x.Len, e.mangle(x.Elem))
	case model.GoMap:
		return "Map" + e.mangle(x.Key) + "_" + e.mangle(x.Elem)
	}
	return "Struct"
}

// typeCode spells a type in the generated package (an alias by its own
// name).
func (e *equalizer) typeCode(t *model.GoType) (*jen.Statement, error) {
	switch t.Kind {
	case model.GoAlias, model.GoNamed:
		return e.named(t)
	case model.GoBasic:
		return jen.Id(t.Name), nil
	case model.GoPointer:
		elem, err := e.typeCode(t.Elem)
		return jen.Op("*").Add(elem), err
	case model.GoSlice:
		elem, err := e.typeCode(t.Elem)
		return jen.Index().Add(elem), err
	case model.GoArray:
		elem, err := e.typeCode(t.Elem)
		return jen.Index(jen.Lit(int(t.Len))).Add(elem), err
	case model.GoMap:
		key, err := e.typeCode(t.Key)
		if err != nil {
			return nil, err
		}
		elem, err := e.typeCode(t.Elem)
		return jen.Map(key).Add(elem), err
	case model.GoInterface:
		if t.Empty {
			return jen.Any(), nil
		}
	case model.GoStruct:
		var fields []jen.Code
		for _, f := range t.Fields {
			code, err := e.typeCode(f.Type)
			if err != nil {
				return nil, err
			}
			if f.Embedded {
				fields = append(fields, code)
			} else {
				fields = append(fields, jen.Id(f.Name).Add(code))
			}
		}
		return jen.Struct(fields...), nil
	}
	return nil, fmt.Errorf("cannot spell type %s in generated code", t.String)
}

// named spells a named type or an alias, with its type arguments.
func (e *equalizer) named(t *model.GoType) (*jen.Statement, error) {
	if t.PkgPath == "" {
		return jen.Id(t.Name), nil
	}
	if !t.Exported && !e.local(t.PkgPath) {
		return nil, fmt.Errorf("cannot spell unexported type %s.%s outside its package", t.PkgPath, t.Name)
	}
	s := jen.Qual(t.PkgPath, t.Name)
	if len(t.TypeArgs) == 0 {
		return s, nil
	}
	var list []jen.Code
	for _, arg := range t.TypeArgs {
		code, err := e.typeCode(arg)
		if err != nil {
			return nil, err
		}
		list = append(list, code)
	}
	return s.Index(list...), nil
}

// equalMethod reports a named type's `Equal(T) bool` or `Equal(*T) bool`.
func equalMethod(t *model.GoType) (ptrArg, ok bool) {
	switch named := t.Unalias(); {
	case named == nil || named.Kind != model.GoNamed:
		return false, false
	case named.Equal == model.EqualPointer:
		return true, true
	case named.Equal == model.EqualValue:
		return false, true
	}
	return false, false
}

// valueComparable reports whether == compares values of t by value: no
// pointer, interface, channel or function anywhere inside.
func valueComparable(t *model.GoType) bool {
	if t == nil {
		return false
	}
	switch u := t.Underlying(); u.Kind {
	case model.GoBasic:
		return u.Basic != model.BasicUnsafePointer && u.Basic != model.BasicUntyped
	case model.GoArray:
		return valueComparable(u.Elem)
	case model.GoStruct:
		for _, f := range u.Fields {
			if !valueComparable(f.Type) {
				return false
			}
		}
		return true
	}
	return false
}
