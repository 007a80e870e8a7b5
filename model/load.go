package model

import (
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/types/typeutil"
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
	// ConversionMarker asks for generated conversion between the versions
	// of a group (gen/conversion), on each version package:
	// // +modelgen:conversion=webhook
	ConversionMarker = markers.Must(markers.MakeDefinition("modelgen:conversion", markers.DescribesPackage, ""))
	// ConversionFromMarker on a field names the JSON name(s) of the field
	// of the other version it is converted from (a rename; two fields
	// naming one is a split, one naming two a merge):
	// // +modelgen:conversion:from=oldName
	ConversionFromMarker = markers.Must(markers.MakeDefinition("modelgen:conversion:from", markers.DescribesField, []string{}))
)

// Registry returns the marker registry: kubebuilder's CRD markers plus modelgen's.
func Registry() (*markers.Registry, error) {
	reg := &markers.Registry{}
	if err := crdmarkers.Register(reg); err != nil {
		return nil, err
	}
	for _, d := range []*markers.Definition{ModelMarker, rootMarker, objectGenerate, AccessDefaultMarker, ConversionMarker, ConversionFromMarker} {
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
	// Listed, when set, is called with the root packages as soon as go
	// list has listed them (their files and dependencies known, nothing
	// parsed yet), before Load goes on; it must not keep or change them.
	Listed func(roots []*loader.Package)
	// Select, when set, is called after Listed with the same roots and
	// returns the ones to load (a subset, in go list's order): the run
	// cache's incremental run loads only the packages whose inputs moved
	// and those that depend on them (gen/all). Nil loads every root.
	Select func(roots []*loader.Package) []*loader.Package
	// ForeignKeywords makes a validate keyword modelgen does not know a
	// warning (the keyword is left out of every schema) instead of an
	// error: the controller-gen drop-in sets it, since controller-gen
	// ignores validate tags and must not be refused what it accepts (an
	// application's own RegisterValidation keyword).
	ForeignKeywords bool
	// ValidatorKeywords, when set, names for the package in dir the
	// validate keywords the application registers on its own validator
	// (RegisterValidation; modelgen.yaml's validatorKeywords). A use of one
	// in that package's tags is a run-time-only check (Model.RuntimeOnly,
	// which the webhook enforces with the application's validator), with no
	// warning: no schema carries it, and the application said so. Called
	// once per package that has validate tags.
	ValidatorKeywords func(dir string) []string
	// TypesOnly type-checks only the packages the types' JSON fields
	// reach, as controller-gen's crd generator does (its check filter:
	// struct fields with a json tag, no interfaces), not every package a
	// type declaration names: an operator's reconciler embeds
	// controller-runtime's client, whose whole graph would be checked from
	// source. For runs whose backends read the schemas only (the CRDs, the
	// role and webhook manifests); a run that copies or generates Go needs
	// every field's type.
	TypesOnly bool
	// ObjectOnly type-checks what controller-gen's object generator
	// checks: the packages the type declarations name, except through an
	// interface type (its methods' parameters and results are not
	// followed), as its check filter does. For runs whose only backend is
	// deepcopy (the drop-in's object line), which copies an interface
	// value without looking into its methods: a reconciler embedding
	// controller-runtime's client interface does not pull client-go's
	// graph into the check. TypesOnly, when set too, wins (it checks less).
	ObjectOnly bool
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
	// the go command's GOROOT and GOMODCACHE, which the parse after the
	// listing asks for, while the loader's go list runs
	go libraryRoots()
	roots, fset, err := loadRoots(cfg.Dir, cfg.Patterns)
	if err != nil {
		return nil, err
	}
	if cfg.Listed != nil {
		cfg.Listed(roots)
	}
	if cfg.Select != nil {
		roots = cfg.Select(roots)
	}
	b := &builder{
		m:     &Model{Loaded: roots, Collector: &markers.Collector{Registry: reg}, Checker: checker(cfg), fset: fset, Dir: cfg.Dir, Patterns: cfg.Patterns},
		types: map[*types.TypeName]*Type{},
		pkgs:  map[string]*Package{},
		infos: map[*loader.Package]map[string]*markers.TypeInfo{},

		foreignKeywords: cfg.ForeignKeywords,
		appKeywords:     cfg.ValidatorKeywords,
	}
	b.m.Diags.Add(parseRoots(roots, fset))
	if b.m.Diags.HasErrors() {
		b.m.Diags = b.m.Diags.Sorted()
		return b.m, nil
	}
	preparse(roots, b.m.Checker.NodeFilters, fset)
	// reported with the rest (all of a run's mistakes at once)
	for _, p := range roots {
		b.m.Diags.Add(b.unknownMarkers(p, reg))
	}
	for _, p := range roots {
		b.selectRoots(p)
	}
	b.drain()
	b.finish()
	return b.m, nil
}

// checker is the partial type checker of a load (see Config.TypesOnly).
func checker(cfg Config) *loader.TypeChecker {
	if cfg.TypesOnly {
		return &loader.TypeChecker{NodeFilters: []loader.NodeFilter{jsonTypes}}
	}
	if cfg.ObjectOnly {
		return &loader.TypeChecker{NodeFilters: []loader.NodeFilter{noInterfaces}}
	}
	return &loader.TypeChecker{}
}

// noInterfaces is the check filter of a load for deepcopy alone
// (Config.ObjectOnly), controller-gen object's own: everything but what an
// interface type names.
func noInterfaces(node ast.Node) bool {
	_, iface := node.(*ast.InterfaceType)
	return !iface
}

// jsonTypes is the check filter of a load for the schemas: the fields of
// struct types that carry a json tag, all of them (encoding/json encodes
// an untagged exported field too, and the model follows it), and nothing
// of a struct without one (a reconciler embedding a client) or of an
// interface. On the structs controller-gen's crd generator checks it
// follows a superset of that generator's filter.
func jsonTypes(node ast.Node) bool {
	switch n := node.(type) {
	case *ast.InterfaceType:
		return false
	case *ast.StructType:
		for _, f := range n.Fields.List {
			if _, ok := loader.ParseAstTag(f.Tag).Lookup("json"); ok {
				return true
			}
		}
		return false
	}
	return true
}

// parseRoots parses the root packages and reports what stops the run
// before any type is looked at: go list's errors, syntax errors anywhere
// in a root (controller-tools would see no types), and imports the go tool
// could not provide. Type errors are Compile's.
func parseRoots(roots []*loader.Package, fset *token.FileSet) Diagnostics {
	var ds Diagnostics
	deep := map[*loader.Package]bool{} // the dependencies deepImportErrors has visited
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
		ds.Add(deepImportErrors(p, deep))
	}
	return ds
}

type builder struct {
	m     *Model
	types map[*types.TypeName]*Type
	pkgs  map[string]*Package
	infos map[*loader.Package]map[string]*markers.TypeInfo
	// kinds: groupKinds, found once
	kinds map[string]map[string]bool
	queue []*Type
	// loaded maps import paths to loader packages reachable from the roots.
	loaded map[string]*loader.Package
	// pendingValidate are validate tags to resolve once every type is known.
	pendingValidate []pending
	// msets holds the method set of each named type asked for: every field
	// of a named type asks (TextKey), and ObjectMeta's has dozens of methods.
	msets typeutil.MethodSetCache
	// foreignKeywords: Config.ForeignKeywords
	foreignKeywords bool
	// appKeywords: Config.ValidatorKeywords; declared holds its answers by
	// package directory.
	appKeywords func(dir string) []string
	declared    map[string]map[string]bool
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
