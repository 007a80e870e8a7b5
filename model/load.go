package model

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/gobuffalo/flect"
	"golang.org/x/mod/modfile"
	"golang.org/x/tools/go/packages"
	crdmarkers "sigs.k8s.io/controller-tools/pkg/crd/markers"
	"sigs.k8s.io/controller-tools/pkg/loader"
	"sigs.k8s.io/controller-tools/pkg/markers"
)

// Markers modelgen adds to controller-tools' own.
var (
	// ModelMarker selects a plain domain struct: // +modelgen:model
	ModelMarker = markers.Must(markers.MakeDefinition("modelgen:model", markers.DescribesType, struct{}{}))
	// rootMarker is kubebuilder's resource root marker (registered by
	// controller-tools' deepcopy generator, not its CRD markers).
	rootMarker = markers.Must(markers.MakeDefinition("kubebuilder:object:root", markers.DescribesType, false))
	// objectGenerate is kubebuilder's package marker for deepcopy.
	objectGenerate = markers.Must(markers.MakeDefinition("kubebuilder:object:generate", markers.DescribesPackage, false))
	// AccessDefaultMarker sets the access rules of a type's untagged fields
	// (see model/accesstag): // +modelgen:access:default="read=*,write=admin"
	AccessDefaultMarker = markers.Must(markers.MakeDefinition("modelgen:access:default", markers.DescribesType, ""))
)

// Registry returns the marker registry: kubebuilder's CRD markers plus modelgen's.
func Registry() (*markers.Registry, error) {
	reg := &markers.Registry{}
	if err := crdmarkers.Register(reg); err != nil {
		return nil, err
	}
	for _, d := range []*markers.Definition{ModelMarker, rootMarker, objectGenerate, AccessDefaultMarker} {
		if err := reg.Register(d); err != nil {
			return nil, err
		}
	}
	return reg, nil
}

// Config says what to load.
type Config struct {
	Dir      string   // working directory for package patterns ("" = current)
	Patterns []string // package patterns, as for go build
}

// Load loads the packages once and builds the model. Problems in the user's
// tags are diagnostics in Model.Diags; an error means the packages could
// not be loaded at all.
func Load(cfg Config) (*Model, error) {
	reg, err := Registry()
	if err != nil {
		return nil, err
	}
	if len(cfg.Patterns) == 0 {
		cfg.Patterns = []string{"."}
	}
	// NeedModule: the language version each package is checked with
	pcfg := &packages.Config{Dir: cfg.Dir, Mode: packages.NeedModule}
	roots, err := loader.LoadRootsWithConfig(pcfg, cfg.Patterns...)
	if err != nil {
		return nil, err
	}
	b := &builder{
		m:     &Model{Loaded: roots, Collector: &markers.Collector{Registry: reg}, Checker: &loader.TypeChecker{}, fset: pcfg.Fset},
		types: map[*types.TypeName]*Type{},
		pkgs:  map[string]*Package{},
		infos: map[*loader.Package]map[string]*markers.TypeInfo{},
	}
	b.m.Diags.Add(parseRoots(roots, pcfg.Fset))
	if b.m.Diags.HasErrors() {
		b.m.Diags = b.m.Diags.Sorted()
		return b.m, nil
	}
	for _, p := range roots {
		b.selectRoots(p)
	}
	b.drain()
	b.finish()
	if !b.m.Diags.HasErrors() {
		b.m.startCheck()
	}
	return b.m, nil
}

// parseRoots parses the root packages and reports what stops the run
// before any type is looked at: go list's errors, syntax errors anywhere
// in a root (controller-tools would see no types), and imports the go tool
// could not provide. Type errors are Compile's.
func parseRoots(roots []*loader.Package, fset *token.FileSet) Diagnostics {
	var ds Diagnostics
	for _, p := range roots {
		p.NeedSyntax()
		if p.Fset == nil {
			p.Fset = fset
		}
		for _, e := range p.Errors {
			pos := posFromString(e.Pos)
			if !pos.IsValid() || pos.Line == 0 && e.Kind != packages.ListError {
				pos = clausePos(p)
			}
			ds.Errorf(pos, "%s", e.Msg)
		}
		ds.Add(importErrors(p))
	}
	return ds
}

type builder struct {
	m     *Model
	types map[*types.TypeName]*Type
	pkgs  map[string]*Package
	infos map[*loader.Package]map[string]*markers.TypeInfo
	queue []*Type
	// loaded maps import paths to loader packages reachable from the roots.
	loaded map[string]*loader.Package
	// pendingValidate are validate tags to resolve once every type is known.
	pendingValidate []pending
}

type pending struct {
	owner *Type
	field *Field
	tag   Tag
}

// ParsePos reads a "file:line:col" position.
func ParsePos(s string) Pos { return posFromString(s) }

func posFromString(s string) Pos {
	parts := strings.Split(s, ":")
	if len(parts) >= 3 {
		line, _ := strconv.Atoi(parts[len(parts)-2])
		col, _ := strconv.Atoi(parts[len(parts)-1])
		return Pos{File: strings.Join(parts[:len(parts)-2], ":"), Line: line, Col: col}
	}
	return Pos{File: s}
}

func (b *builder) position(p *loader.Package, pos token.Pos) Pos {
	ps := p.Fset.Position(pos)
	return Pos{File: ps.Filename, Line: ps.Line, Col: ps.Column}
}

// typeInfos collects controller-tools' type infos (docs and markers) of a package.
func (b *builder) typeInfos(p *loader.Package) map[string]*markers.TypeInfo {
	if infos, ok := b.infos[p]; ok {
		return infos
	}
	infos := map[string]*markers.TypeInfo{}
	b.infos[p] = infos
	b.m.Checker.Check(p)
	if err := markers.EachType(b.m.Collector, p, func(info *markers.TypeInfo) {
		infos[info.Name] = info
	}); err != nil {
		pos := clausePos(p)
		if !pos.IsValid() {
			pos = Pos{File: p.PkgPath}
		}
		b.m.Diags.Errorf(pos, "%v", err)
	}
	return infos
}

// selectRoots selects the entry points of a package: its Kubernetes kinds,
// found as controller-gen finds them (see groupKinds), the lists of those
// kinds, and its +modelgen:model types.
func (b *builder) selectRoots(p *loader.Package) {
	infos := b.typeInfos(p)
	group, skipped := b.packageGroup(p)
	kinds := b.groupKinds()[group]
	var noGroup []*markers.TypeInfo
	for _, n := range slices.Sorted(maps.Keys(infos)) {
		info := infos[n]
		object := kindOf(p, info) != notObject || info.Markers.Get(rootMarker.Name) == true
		if object && group == "" && !skipped {
			noGroup = append(noGroup, info)
		}
		kind := group != "" && kinds[n] && info.Markers.Get("kubebuilder:skipversion") == nil
		list := group != "" && object && strings.HasSuffix(n, "List") && kinds[strings.TrimSuffix(n, "List")] &&
			infos[strings.TrimSuffix(n, "List")] != nil && infos[strings.TrimSuffix(n, "List")].Markers.Get("kubebuilder:skipversion") == nil
		model := info.Markers.Get(ModelMarker.Name) != nil
		if !kind && !list && !model {
			continue
		}
		t := b.typeFor(p, n)
		if t == nil {
			continue
		}
		t.Root, t.Model = kind || list, model
		if kind {
			t.Resource = resourceOf(t)
		}
	}
	if len(noGroup) > 0 {
		b.noteNoGroup(p, noGroup)
	}
}

// groupKinds returns the kinds of each group as controller-gen's CRD
// generator finds them: a struct embedding metav1.TypeMeta and
// metav1.ObjectMeta in a package of the run with a +groupName (and without
// +kubebuilder:skip) makes its name a kind of the group, and then a type of
// that name in any package of the group is a version of it (as
// `type Gateway v1.Gateway` in gateway-api's v1beta1).
func (b *builder) groupKinds() map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for _, p := range b.m.Loaded {
		group, _ := b.packageGroup(p)
		if group == "" {
			continue
		}
		for name, info := range b.typeInfos(p) {
			if kindOf(p, info) == kubeKind {
				if out[group] == nil {
					out[group] = map[string]bool{}
				}
				out[group][name] = true
			}
		}
	}
	return out
}

// packageGroup returns the +groupName of a package, and whether the package
// opted out of CRD generation with +kubebuilder:skip.
func (b *builder) packageGroup(p *loader.Package) (group string, skip bool) {
	pm, err := markers.PackageMarkers(b.m.Collector, p)
	if err != nil {
		return "", false
	}
	if pm.Get("kubebuilder:skip") != nil {
		return "", true
	}
	g, _ := pm.Get("groupName").(string)
	return g, false
}

// noteNoGroup says once per package that its objects are skipped because
// the package has no +groupName, as controller-gen skips them.
func (b *builder) noteNoGroup(p *loader.Package, infos []*markers.TypeInfo) {
	names := make([]string, len(infos))
	for i, info := range infos {
		names[i] = info.Name
	}
	if len(names) > 3 {
		names = append(names[:3], fmt.Sprintf("and %d more", len(infos)-3))
	}
	b.m.Diags.Warnf(b.position(p, infos[0].RawSpec.Name.Pos()),
		"package %s has no +groupName marker, so its objects (%s) get no CRD and no API paths, as with controller-gen; add `// +groupName=<group>` to the package comment to generate them",
		p.PkgPath, strings.Join(names, ", "))
}

type objectKind int

const (
	notObject objectKind = iota
	kubeKind             // embeds TypeMeta and ObjectMeta: a CRD kind
	kubeList             // embeds TypeMeta and ListMeta
)

const metav1Path = "k8s.io/apimachinery/pkg/apis/meta/v1"

// kindOf tells a Kubernetes kind from a list and from anything else the way
// controller-gen's FindKubeKinds does: by the metav1 types the struct
// embeds, whatever its markers say.
func kindOf(p *loader.Package, info *markers.TypeInfo) objectKind {
	embeds := map[string]bool{}
	for _, f := range info.Fields {
		if f.Name != "" || p.TypesInfo == nil {
			continue
		}
		named, ok := types.Unalias(p.TypesInfo.TypeOf(f.RawField.Type)).(*types.Named)
		if !ok || named.Obj().Pkg() == nil || loader.NonVendorPath(named.Obj().Pkg().Path()) != metav1Path {
			continue
		}
		embeds[named.Obj().Name()] = true
	}
	switch {
	case !embeds["TypeMeta"]:
		return notObject
	case embeds["ObjectMeta"]:
		return kubeKind
	case embeds["ListMeta"]:
		return kubeList
	}
	return notObject
}

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
		t.Methods = methodsOf(p, obj)
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
			if tag, ok := f.Tags["json"]; ok && tag.Value != "-" {
				b.m.Diags.Warnf(tag.Pos, "json: %s.%s is unexported: encoding/json ignores it and its json tag, and so does the schema", t.Name, f.GoName)
			}
			return
		}
	}
	f.JSONName, f.Inline, f.OmitEmpty, f.OmitZero, f.Skip = jsonName(f, promoted(gt))
	f.Type, f.Source = b.ref(p, gt), types.ExprString(raw.Type)
	f.StateTag, f.AccessTag = f.Tags["state"], f.Tags["access"]
	t.Fields = append(t.Fields, f)
	b.jsonOptions(t, f, gt)
	if v, ok := f.Tags["validate"]; ok {
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

// jsonName applies encoding/json's rules to a field's json tag: "-" skips
// it ("-," names it "-"); an empty name keeps the Go name, except on an
// embedded struct (or pointer to one), whose fields are promoted into the
// parent (Inline); an embedded field of another type is named by its type.
// k8s' ",inline" option means nothing to encoding/json: on an embedded
// struct it agrees with the empty name, elsewhere jsonOptions refuses it.
func jsonName(f *Field, promotes bool) (name string, inline, omitEmpty, omitZero, skip bool) {
	tag, ok := f.Tags["json"]
	if ok && tag.Value == "-" {
		return "", false, false, false, true
	}
	parts := strings.Split(tag.Value, ",")
	name = parts[0]
	if !validJSONName(name) {
		name = "" // encoding/json ignores the name (jsonOptions warns)
	}
	for _, opt := range parts[1:] {
		switch opt {
		case "omitempty":
			omitEmpty = true
		case "omitzero":
			omitZero = true
		}
	}
	if name == "" && f.Embedded && promotes {
		return "", true, omitEmpty, omitZero, false
	}
	if name == "" {
		name = f.GoName
	}
	return name, false, omitEmpty, omitZero, false
}

// promoted reports an embedded field type whose fields encoding/json
// promotes: a struct, or a pointer to one.
func promoted(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	_, ok := t.Underlying().(*types.Struct)
	return ok
}

// jsonOptions refuses the json tag options no schema can describe.
func (b *builder) jsonOptions(t *Type, f *Field, gt types.Type) {
	tag, ok := f.Tags["json"]
	if !ok {
		return
	}
	parts := strings.Split(tag.Value, ",")
	if !validJSONName(parts[0]) {
		b.m.Diags.Warnf(tag.At(0), "json: encoding/json ignores the name %q (a name holds letters, digits and !#$%%&()*+-./:;<=>?@[]^_{|}~ and spaces only), so the property is %q", parts[0], f.JSONName)
	}
	off := len(parts[0]) + 1
	for _, opt := range parts[1:] {
		switch {
		case opt == "string" && quotable(gt):
			b.m.Diags.Errorf(tag.At(off), "json: %s.%s has the ,string option: encoding/json then reads the %s from inside a JSON string, which no schema here describes; drop the option, or make the field a string", t.Name, f.GoName, f.Type.GoType)
		case opt == "inline" && !(f.Embedded && promoted(gt)):
			b.m.Diags.Errorf(tag.At(off), "json: encoding/json inlines only an embedded struct, not %s.%s (it names it %q); embed the type, or drop ,inline", t.Name, f.GoName, f.JSONName)
		}
		off += len(opt) + 1
	}
}

// validJSONName is encoding/json's isValidTag: the empty name, or letters,
// digits and the punctuation it allows (no quotes, no backslash, no comma).
func validJSONName(name string) bool {
	for _, c := range name {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}

// quotable reports the types encoding/json's ,string option applies to:
// strings, numbers and booleans, or a pointer to one.
func quotable(t types.Type) bool {
	if p, ok := types.Unalias(t).(*types.Pointer); ok {
		t = p.Elem()
	}
	b, ok := t.Underlying().(*types.Basic)
	return ok && b.Info()&(types.IsBoolean|types.IsNumeric|types.IsString) != 0
}

// tags parses a field's struct tag, keeping the position of each value.
func (b *builder) tags(p *loader.Package, raw *ast.Field) map[string]Tag {
	out := map[string]Tag{}
	if raw.Tag == nil {
		return out
	}
	lit := raw.Tag.Value
	text, err := strconv.Unquote(lit)
	if err != nil {
		return out
	}
	base := b.position(p, raw.Tag.Pos())
	base.Col++ // the opening quote
	for i := 0; i < len(text); {
		for i < len(text) && text[i] == ' ' {
			i++
		}
		j := i
		for j < len(text) && text[j] > ' ' && text[j] != ':' && text[j] != '"' && text[j] != 0x7f {
			j++
		}
		if j == i || j+1 >= len(text) || text[j] != ':' || text[j+1] != '"' {
			break
		}
		key := text[i:j]
		k := j + 2
		for k < len(text) && text[k] != '"' {
			if text[k] == '\\' {
				k++
			}
			k++
		}
		if k >= len(text) {
			break
		}
		val, err := strconv.Unquote(text[j+1 : k+1])
		if err != nil {
			break
		}
		pos := base
		pos.Col += j + 2
		out[key] = Tag{Value: val, Pos: pos, Set: true}
		i = k + 1
	}
	return out
}

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
	r.TextKey = implementsTextMarshaler(x)
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

// inUserModule reports whether a package is the user's own code (not the
// standard library or a dependency in the module cache): its types join the
// model.
func (b *builder) inUserModule(p *loader.Package) bool {
	if len(p.GoFiles) == 0 {
		return false
	}
	dir := filepath.Dir(p.GoFiles[0])
	for _, lib := range libraryRoots() {
		if lib != "" && strings.HasPrefix(dir, lib+string(filepath.Separator)) {
			return false
		}
	}
	return true
}

var libRoots []string

func libraryRoots() []string {
	if libRoots == nil {
		libRoots = goEnv("GOROOT", "GOMODCACHE")
	}
	return libRoots
}

// goEnv asks the go command for variables, in one call.
func goEnv(names ...string) []string {
	out, err := exec.Command("go", append([]string{"env"}, names...)...).Output()
	if err != nil {
		return nil
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n")
}

// moduleOf finds the module root and path of a directory (the nearest go.mod).
func moduleOf(dir string) (path, root string) {
	for d := dir; ; d = filepath.Dir(d) {
		if data, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil {
			return modfile.ModulePath(data), d
		}
		if filepath.Dir(d) == d {
			return "", ""
		}
	}
}

// LoadErrors returns the errors controller-tools recorded while loading and
// type-checking the package. Errors inside generated files
// (zz_generated.*) are warnings: such a file is stale (for example its
// staleness guard names a constant that is gone) and this run replaces it.
func (p *Package) LoadErrors() Diagnostics {
	var ds Diagnostics
	for _, e := range p.Loaded.Errors {
		if e.Kind == packages.TypeError {
			// As controller-gen does: the loader type-checks only what type
			// declarations need, so other declarations (a scheme builder,
			// functions) may not check. The Go compiler reports real errors.
			continue
		}
		pos, msg := posFromString(e.Pos), e.Msg
		if strings.HasPrefix(filepath.Base(pos.File), "zz_generated.") {
			ds.Warnf(pos, "%s (a stale generated file; this run replaces it)", msg)
			continue
		}
		ds.Errorf(pos, "%s", msg)
	}
	return ds
}
