package model

// The IR types and fields built from a package's declarations, queued and filled once each.

import (
	"go/ast"
	"go/constant"
	"go/types"
	"path/filepath"
	"sort"
	"strings"

	"github.com/gobuffalo/flect"
	crdmarkers "sigs.k8s.io/controller-tools/pkg/crd/markers"
	"sigs.k8s.io/controller-tools/pkg/loader"
	"sigs.k8s.io/controller-tools/pkg/markers"
)

func (b *builder) pkgFor(p *loader.Package) *Package {
	if pk, ok := b.pkgs[p.PkgPath]; ok {
		return pk
	}
	pk := &Package{Path: p.PkgPath, Name: p.Name, Loaded: p}
	if len(p.GoFiles) > 0 {
		pk.Dir = filepath.Dir(p.GoFiles[0])
	}
	pk.Module, pk.ModDir = moduleOf(pk.Dir)
	if pm, err := markers.PackageMarkers(b.m.Collector, p); err == nil {
		if g, ok := pm.Get("groupName").(string); ok {
			pk.Group = g
		}
		pk.Version = p.Name
		if v, ok := pm.Get("versionName").(string); ok && v != "" {
			pk.Version = v
		}
	}
	b.pkgs[p.PkgPath] = pk
	b.m.Packages = append(b.m.Packages, pk)
	return pk
}

// typeFor returns the IR type for a named type of a loaded package, queueing
// it for its fields the first time.
func (b *builder) typeFor(p *loader.Package, name string) *Type {
	obj, ok := p.Types.Scope().Lookup(name).(*types.TypeName)
	if !ok {
		return nil
	}
	if t, ok := b.types[obj]; ok {
		return t
	}
	info := b.typeInfos(p)[name]
	if info == nil {
		return nil
	}
	pk := b.pkgFor(p)
	t := &Type{Name: name, Pkg: pk, Doc: info.Doc, Markers: info.Markers, Pos: b.position(p, info.RawSpec.Name.Pos())}
	b.types[obj] = t
	pk.Types = append(pk.Types, t)
	b.queue = append(b.queue, t)
	return t
}

func (b *builder) drain() {
	for len(b.queue) > 0 {
		t := b.queue[0]
		b.queue = b.queue[1:]
		b.fill(t)
	}
}

func (b *builder) fill(t *Type) {
	p := t.Pkg.Loaded
	info := b.typeInfos(p)[t.Name]
	obj := p.Types.Scope().Lookup(t.Name).(*types.TypeName)
	if n, ok := obj.Type().(*types.Named); ok && genericNamed(n) {
		t.generic = true
		return
	}
	switch u := obj.Type().Underlying().(type) {
	case *types.Struct:
		t.TypeKind = TypeStruct
		t.Methods = methodsOf(&b.msets, p, obj)
		for i := range info.Fields {
			b.field(t, p, &info.Fields[i], i)
		}
	case *types.Basic:
		t.TypeKind = TypeScalar
		t.Underlying = b.ref(p, u)
		t.Enum = b.enum(p, obj)
	default:
		t.TypeKind = TypeOther
		t.Underlying = b.ref(p, u)
	}
}

func (b *builder) enum(p *loader.Package, obj *types.TypeName) []EnumValue {
	var out []EnumValue
	scope := p.Types.Scope()
	for _, n := range scope.Names() {
		c, ok := scope.Lookup(n).(*types.Const)
		if !ok || !types.Identical(c.Type(), obj.Type()) {
			continue
		}
		v := c.Val().ExactString()
		if c.Val().Kind() == constant.String {
			v = constant.StringVal(c.Val())
		}
		out = append(out, EnumValue{GoName: n, Value: v, Pos: b.position(p, c.Pos())})
	}
	sort.Slice(out, func(i, j int) bool {
		a, c := out[i].Pos, out[j].Pos
		if a.File != c.File {
			return a.File < c.File
		}
		return a.Line < c.Line || a.Line == c.Line && a.Col < c.Col
	})
	return out
}

func resourceOf(t *Type) *Resource {
	r := &Resource{Kind: t.Name, Plural: strings.ToLower(flect.Pluralize(t.Name)), Singular: strings.ToLower(t.Name), Namespaced: true}
	if res, ok := t.Markers.Get("kubebuilder:resource").(crdmarkers.Resource); ok {
		if res.Path != "" {
			r.Plural = res.Path
		}
		if res.Singular != "" {
			r.Singular = res.Singular
		}
		r.ShortNames = res.ShortName
		r.Namespaced = res.Scope != "Cluster"
	}
	r.Status = t.Markers.Get("kubebuilder:subresource:status") != nil
	r.Scale = t.Markers.Get("kubebuilder:subresource:scale") != nil
	return r
}

func (b *builder) field(t *Type, p *loader.Package, fi *markers.FieldInfo, index int) {
	raw := fi.RawField
	f := &Field{GoName: fi.Name, Doc: fi.Doc, Markers: fi.Markers, Embedded: len(raw.Names) == 0, Index: index}
	f.Tags = b.tags(p, raw)
	gt := p.TypesInfo.TypeOf(raw.Type)
	if f.Embedded {
		f.GoName = embeddedName(raw.Type)
		f.Pos = b.position(p, raw.Type.Pos())
		if !ast.IsExported(f.GoName) && !promoted(gt) {
			return // encoding/json ignores it, as it cannot set it
		}
	} else {
		f.Pos = b.position(p, raw.Names[0].Pos())
		for _, n := range raw.Names {
			if n.Name == fi.Name {
				f.Pos = b.position(p, n.Pos())
			}
		}
		if !ast.IsExported(fi.Name) {
			if tag, ok := f.Tags.Get("json"); ok && tag.Value != "-" {
				b.m.Diags.Warnf(tag.Pos, "json: %s.%s is unexported: encoding/json ignores it and its json tag, and so does the schema", t.Name, f.GoName)
			}
			return
		}
	}
	f.JSONName, f.Inline, f.OmitEmpty, f.OmitZero, f.Skip = jsonName(f, promoted(gt))
	f.Type, f.Source = b.ref(p, gt), types.ExprString(raw.Type)
	f.StateTag, _ = f.Tags.Get("state")
	f.AccessTag, _ = f.Tags.Get("access")
	t.Fields = append(t.Fields, f)
	b.jsonOptions(t, f, gt)
	if v, ok := f.Tags.Get("validate"); ok {
		b.pendingValidate = append(b.pendingValidate, pending{t, f, v})
	}
}

func embeddedName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.StarExpr:
		return embeddedName(x.X)
	case *ast.SelectorExpr:
		return x.Sel.Name
	case *ast.Ident:
		return x.Name
	}
	return ""
}
