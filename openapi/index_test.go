package openapi

import (
	"testing"

	"golang.org/x/tools/go/packages"
	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/modelgen/modelgen/model"
	"github.com/modelgen/modelgen/schema"
)

// TestTypeIndexIsTypeOf: the document builder looks a component's model
// type up in an index instead of schema.Set.TypeOf's scan of the packages;
// for every schema of every case (the unvalidated variants among them) the
// index gives what TypeOf gives.
func TestTypeIndexIsTypeOf(t *testing.T) {
	var patterns []string
	for _, c := range caseDirs(t) {
		patterns = append(patterns, "./"+c)
	}
	m, err := model.Load(model.Config{Dir: "testdata", Patterns: patterns})
	if err != nil || m.Diags.HasErrors() {
		t.Fatalf("loading: %v %v", err, m.Diags)
	}
	set := schema.Build(m, model.TargetOpenAPI)
	b := NewIndex(set)
	ids := map[crd.TypeIdent]bool{}
	for id := range set.Parser.Schemata {
		ids[id] = true
	}
	for _, pk := range m.Packages {
		for _, ty := range pk.Types {
			ids[schema.Ident(ty)] = true
		}
	}
	found, variants := 0, 0
	for id := range ids {
		want, variant := set.TypeOf(id)
		if got := b.modelType(id); got != want {
			t.Errorf("%s.%s: index gives %v, TypeOf %v", id.Package.PkgPath, id.Name, got, want)
		}
		if want != nil {
			found++
		}
		if variant {
			variants++
		}
	}
	if found == 0 || variants == 0 {
		t.Fatalf("the cases have %d model types and %d unvalidated variants: the test compares nothing", found, variants)
	}
}

// TestComponentNamesStayDistinct: a user type named like one already given
// a component name gets its package's name in front, and the first keeps
// the plain name, whatever order they come in.
func TestComponentNamesStayDistinct(t *testing.T) {
	pkg := func(path, name string) *loader.Package {
		return &loader.Package{Package: &packages.Package{PkgPath: path, Name: name}}
	}
	a, b := pkg("example.com/a/v1", "v1"), pkg("example.com/b/v2", "v2")
	set := &schema.Set{Model: &model.Model{Packages: []*model.Package{{Loaded: a}, {Loaded: b}}}}
	set.Parser = &crd.Parser{}
	d := &docBuilder{Index: NewIndex(set), set: set, names: map[string]string{}, taken: map[string]bool{}}
	for _, c := range []struct {
		id   crd.TypeIdent
		want string
	}{
		{crd.TypeIdent{Package: a, Name: "Widget"}, "Widget"},
		{crd.TypeIdent{Package: b, Name: "Widget"}, "v2.Widget"},
		{crd.TypeIdent{Package: a, Name: "Widget"}, "Widget"},
		{crd.TypeIdent{Package: b, Name: "Gadget"}, "Gadget"},
	} {
		if got := d.componentName(c.id); got != c.want {
			t.Errorf("%s.%s: component %q, want %q", c.id.Package.PkgPath, c.id.Name, got, c.want)
		}
	}
}

// TestOneIndexForEveryDocument: the documents of a set's packages built
// from one Index are those Build gives, and the set's types are indexed
// (and its enum types listed from the model's sorted types) once for all
// of them, not once per document.
func TestOneIndexForEveryDocument(t *testing.T) {
	var patterns []string
	for _, c := range caseDirs(t) {
		patterns = append(patterns, "./"+c)
	}
	m, err := model.Load(model.Config{Dir: "testdata", Patterns: patterns})
	if err != nil || m.Diags.HasErrors() {
		t.Fatalf("loading: %v %v", err, m.Diags)
	}
	set := schema.Build(m, model.TargetOpenAPI)
	x := NewIndex(set)
	count, listed := 0, 0
	indexed = func() { count++ }
	enumsListed = func() { listed++ }
	defer func() { indexed, enumsListed = nil, nil }()
	docs := 0
	for _, pk := range m.Packages {
		doc, _, err := x.Build([]*model.Package{pk}, Info{Title: "t", Version: "1.0.0"})
		if err != nil {
			t.Fatalf("%s: %v", pk.Path, err)
		}
		docs++
		got, err := YAML(doc)
		if err != nil {
			t.Fatal(err)
		}
		alone, _, err := Build(set, []*model.Package{pk}, Info{Title: "t", Version: "1.0.0"})
		if err != nil {
			t.Fatal(err)
		}
		want, _ := YAML(alone)
		if string(got) != string(want) {
			t.Errorf("%s: the document from the shared index differs from Build's", pk.Path)
		}
	}
	if docs < 3 {
		t.Fatalf("%d documents: the test compares too little", docs)
	}
	if built := count - docs; built != 0 { // each Build above indexes once
		t.Errorf("the shared index was built again %d times for %d documents", built, docs)
	}
	if again := listed - docs - 1; again != 0 { // each Build above lists once, the shared index once
		t.Errorf("the shared index listed the enum types again %d times for %d documents", again, docs)
	}
}
