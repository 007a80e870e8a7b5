package model

// TypeRef building: Go types to the IR's type references.

import (
	"fmt"
	"go/types"

	"sigs.k8s.io/controller-tools/pkg/loader"
)

// ref converts a Go type to a TypeRef, queueing named types of the user's
// packages.
func (b *builder) ref(p *loader.Package, t types.Type) *TypeRef {
	switch x := t.(type) {
	case *types.Named:
		return b.named(p, x)
	case *types.Alias:
		return b.ref(p, types.Unalias(x))
	case *types.Pointer:
		e := b.ref(p, x.Elem())
		return &TypeRef{Kind: KindPointer, Elem: e, GoType: "*" + e.GoType}
	case *types.Slice:
		if b, ok := x.Elem().(*types.Basic); ok && b.Kind() == types.Byte {
			return &TypeRef{Kind: KindBytes, GoType: "[]byte"}
		}
		e := b.ref(p, x.Elem())
		return &TypeRef{Kind: KindSlice, Elem: e, Len: -1, GoType: "[]" + e.GoType}
	case *types.Array:
		e := b.ref(p, x.Elem())
		return &TypeRef{Kind: KindSlice, Elem: e, Len: int(x.Len()), GoType: fmt.Sprintf("[%d]%s", x.Len(), e.GoType)}
	case *types.Map:
		k, v := b.ref(p, x.Key()), b.ref(p, x.Elem())
		return &TypeRef{Kind: KindMap, Key: k, Elem: v, GoType: "map[" + k.GoType + "]" + v.GoType}
	case *types.Basic:
		return basicRef(x)
	case *types.Interface:
		return &TypeRef{Kind: KindInterface, GoType: "any"}
	case *types.Struct:
		return &TypeRef{Kind: KindStruct, GoType: "struct{...}"}
	}
	return &TypeRef{Kind: KindInvalid, GoType: t.String(), Under: t.String()}
}

func basicRef(x *types.Basic) *TypeRef {
	r := &TypeRef{GoType: x.Name()}
	info := x.Info()
	switch {
	case info&types.IsString != 0:
		r.Kind = KindString
	case info&types.IsBoolean != 0:
		r.Kind = KindBool
	case info&types.IsInteger != 0:
		r.Kind, r.Unsigned = KindInt, info&types.IsUnsigned != 0
		r.Bits = map[types.BasicKind]int{types.Int8: 8, types.Int16: 16, types.Int32: 32, types.Int64: 64, types.Uint8: 8, types.Uint16: 16, types.Uint32: 32, types.Uint64: 64}[x.Kind()]
	case info&types.IsFloat != 0:
		r.Kind, r.Bits = KindFloat, 64
		if x.Kind() == types.Float32 {
			r.Bits = 32
		}
	default:
		r.Kind, r.Under, r.GoType = KindInvalid, x.String(), x.String()
	}
	return r
}

// wellKnown maps types from outside the user's packages to kinds.
var wellKnown = map[string]Kind{
	"time.Time":     KindTime,
	"time.Duration": KindDuration,
	"k8s.io/apimachinery/pkg/apis/meta/v1.Time":                     KindTime,
	"k8s.io/apimachinery/pkg/apis/meta/v1.MicroTime":                KindTime,
	"k8s.io/apimachinery/pkg/apis/meta/v1.Duration":                 KindMetaDuration,
	"k8s.io/apimachinery/pkg/api/resource.Quantity":                 KindQuantity,
	"k8s.io/apimachinery/pkg/util/intstr.IntOrString":               KindIntOrString,
	"k8s.io/apimachinery/pkg/runtime.RawExtension":                  KindRaw,
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1.JSON": KindRaw,
	"encoding/json.RawMessage":                                      KindRaw,
}

func (b *builder) named(p *loader.Package, x *types.Named) *TypeRef {
	obj := x.Obj()
	if obj.Pkg() == nil {
		r := *b.ref(p, x.Underlying())
		r.GoType = obj.Name() // error, comparable
		return &r
	}
	path := obj.Pkg().Path()
	full := path + "." + obj.Name()
	goType := obj.Name()
	if path != p.PkgPath {
		goType = obj.Pkg().Name() + "." + obj.Name()
	}
	if k, ok := wellKnown[full]; ok {
		return &TypeRef{Kind: k, GoType: goType, ImportPath: path, TypeName: obj.Name(), Bits: 64}
	}
	under := b.ref(p, x.Underlying())
	r := *under
	r.GoType, r.ImportPath, r.TypeName = goType, path, obj.Name()
	r.TextKey = implementsTextMarshaler(&b.msets, x)
	if genericNamed(x) {
		r.Generic = true
		r.GoType = types.TypeString(x, types.RelativeTo(p.Types))
		return &r
	}
	if lp := b.loaderPackage(p, path); lp != nil && b.inUserModule(lp) {
		r.Named = b.typeFor(lp, obj.Name())
	}
	return &r
}

// loaderPackage finds the loader package for an import path reachable from p.
func (b *builder) loaderPackage(p *loader.Package, path string) *loader.Package {
	if path == p.PkgPath {
		return p
	}
	if b.loaded == nil {
		b.loaded = map[string]*loader.Package{}
		var visit func(*loader.Package)
		visit = func(q *loader.Package) {
			if _, seen := b.loaded[q.PkgPath]; seen {
				return
			}
			b.loaded[q.PkgPath] = q
			for _, imp := range q.Imports() {
				visit(imp)
			}
		}
		for _, r := range b.m.Loaded {
			visit(r)
		}
	}
	return b.loaded[path]
}
