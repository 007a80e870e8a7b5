package conversion_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/modelgen/modelgen/agree"
	"github.com/modelgen/modelgen/agree/testdata/exact"
	"github.com/modelgen/modelgen/agree/testdata/shapes"
	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/gen/conversion"
	"github.com/modelgen/modelgen/internal/testkit"
	"github.com/modelgen/modelgen/model"
)

// corpusSources are the agreement corpus's type files (relative to the
// checkout): every keyword on every kind (agree/internal/cases, generated
// from the registry), the JSON shapes encoding/json decides, and the shapes
// validator's semantics decide.
var corpusSources = []string{
	"agree/internal/cases/cases.go",
	"agree/testdata/shapes/shapes.go",
	"agree/testdata/exact/exact.go",
}

// corpusVariant is one generated pair: the corpus's types as the hub (v1,
// the storage version) and as the spoke (v1alpha1), with the lines drop
// removes from one side's files (a field that version lacks, kept in the
// annotation through the other).
type corpusVariant struct {
	name string
	// dropFrom is "v1alpha1" (the spoke lacks the fields) or "v1" (the hub
	// lacks them, so the spoke adds them); "" drops nothing.
	dropFrom string
}

var corpusVariants = []corpusVariant{{"same", ""}, {"lacks", "v1alpha1"}, {"adds", "v1"}}

// corpusDrops are the fields a variant drops: Omit of every keyword struct
// (every kind's type, pointers, slices, maps, structs and pointers to
// them), Item.Sub of the exact shapes (a pointer to a struct inside list
// elements, map values, nested lists and pointers), and the spec's Bare of
// the JSON shapes (a field named by its Go name).
var corpusDrops = regexp.MustCompile(`(?m)^\t(Omit |Sub +\*Leaf |Bare +int ).*\n`)

// TestCorpusRoundTrips converts every document of the agreement corpus
// through both versions of a generated pair, both ways: for each variant
// (the same types in both versions; the spoke lacking fields the hub has;
// the spoke adding fields the hub lacks) it generates the conversion
// of the corpus's types, compiles it in one scratch module
// with the examples' requirements, and in one test process decodes each
// document into the spoke and into the hub and checks spoke → hub → spoke
// and hub → spoke → hub give back the object they started from, compared
// as Go values and as JSON. MODELGEN_CORPUS_MUTATE="variant/version:old=>new"
// edits that package's generated conversion first, to see the test fail
// (docs/conversion.md).
func TestCorpusRoundTrips(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command on a scratch module and loads the agreement corpus")
	}
	start := time.Now()
	docs := corpusDocuments(t)
	t.Logf("the corpus's documents: %v", time.Since(start).Round(time.Millisecond))
	root := testkit.Root(t)
	dir := t.TempDir()
	mod := testkit.ReadFile(t, filepath.Join(root, "examples", "go.mod"))
	mod = strings.Replace(mod, "module github.com/modelgen/modelgen/examples", "module example.com/roundtrip", 1)
	mod = strings.Replace(mod, "=> ../", "=> "+root, 1)
	testkit.WriteFile(t, filepath.Join(dir, "go.mod"), mod)
	testkit.WriteFile(t, filepath.Join(dir, "go.sum"), testkit.ReadFile(t, filepath.Join(root, "examples", "go.sum")))

	var kinds []string
	for _, src := range corpusSources {
		text := testkit.ReadFile(t, filepath.Join(root, filepath.FromSlash(src)))
		for _, m := range regexp.MustCompile(`(?m)^// \+kubebuilder:object:root=true\ntype (\w+) struct`).FindAllStringSubmatch(text, -1) {
			kinds = append(kinds, m[1])
		}
	}
	sort.Strings(kinds)
	// the kinds are runtime.Objects by a shallow copy: the conversion never
	// copies a whole object, and the corpus has fields (time.Time) that
	// generated deepcopy refuses
	var object strings.Builder
	for _, k := range kinds {
		fmt.Fprintf(&object, "\n// DeepCopyObject makes %[1]s a runtime.Object.\nfunc (in *%[1]s) DeepCopyObject() runtime.Object { out := *in; return &out }\n", k)
	}
	for _, variant := range corpusVariants {
		for _, version := range []string{"v1", "v1alpha1"} {
			pkgDir := filepath.Join(dir, variant.name, version)
			testkit.WriteFile(t, filepath.Join(pkgDir, "doc.go"), fmt.Sprintf("// Package %s is the agreement corpus as version %s of a converted group.\n//\n// +groupName=%s.roundtrip.modelgen.dev\n// +modelgen:conversion=webhook\npackage %s\n\nimport \"k8s.io/apimachinery/pkg/runtime\"\n%s", version, version, variant.name, version, object.String()))
			for _, src := range corpusSources {
				text := testkit.ReadFile(t, filepath.Join(root, filepath.FromSlash(src)))
				_, body, ok := strings.Cut(text, "\npackage ")
				if !ok {
					t.Fatalf("%s has no package clause", src)
				}
				_, body, _ = strings.Cut(body, "\n")
				body = "package " + version + "\n" + body
				if version == "v1" {
					body = strings.ReplaceAll(body, "// +kubebuilder:object:root=true\n", "// +kubebuilder:object:root=true\n// +kubebuilder:storageversion\n")
				}
				if variant.dropFrom == version {
					n := len(corpusDrops.FindAllString(body, -1))
					if n == 0 {
						t.Fatalf("%s: no field to drop: the corpus changed shape, and the variant %s no longer drops anything", src, variant.name)
					}
					body = corpusDrops.ReplaceAllString(body, "")
				}
				testkit.WriteFile(t, filepath.Join(pkgDir, filepath.Base(src)), body)
			}
		}
	}
	for k := range docs {
		if !slices.Contains(kinds, k) {
			t.Fatalf("the corpus has documents of %s, which no generated pair declares", k)
		}
	}

	start = time.Now()
	m, err := model.Load(model.Config{Dir: dir, Patterns: []string{"./..."}})
	if err != nil {
		t.Fatal(err)
	}
	if m.Diags.HasErrors() {
		t.Fatalf("loading the corpus's versions: %v", m.Diags)
	}
	files, diags := gen.Run(m, gen.DefaultConfigs(m), []gen.Backend{conversion.Generator{}})
	if diags.HasErrors() {
		t.Fatalf("generating the corpus's conversion: %v", diags)
	}
	written := 0
	for _, f := range files {
		// the generated fuzz tests are proved elsewhere; the documents are
		// the point here
		if strings.HasSuffix(f.Path, ".go") && !strings.HasSuffix(f.Path, "_test.go") {
			if err := os.WriteFile(f.Path, f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
			written++
		}
	}
	if want := 2 * len(corpusVariants); written != want {
		t.Fatalf("the conversion backend wrote %d Go files, want %d (one in each version package)", written, want)
	}
	if mutate := os.Getenv("MODELGEN_CORPUS_MUTATE"); mutate != "" {
		// a mutation check by hand: "variant/version:old=>new" edits the
		// first old in that package's generated conversion
		pkg, edit, _ := strings.Cut(mutate, ":")
		old, repl, _ := strings.Cut(edit, "=>")
		esc := strings.NewReplacer(`\n`, "\n", `\t`, "\t")
		testkit.Edit(t, filepath.Join(dir, filepath.FromSlash(pkg), conversion.FileName), esc.Replace(old), esc.Replace(repl))
	}

	t.Logf("load and generate: %v", time.Since(start).Round(time.Millisecond))
	data, err := json.Marshal(docs)
	if err != nil {
		t.Fatal(err)
	}
	testkit.WriteFile(t, filepath.Join(dir, "roundtrip", "testdata", "docs.json"), string(data))
	testkit.WriteFile(t, filepath.Join(dir, "roundtrip", "roundtrip_test.go"), roundTripSource(kinds))
	cmd := exec.Command("go", "test", "-count=1", "-v", "-run", "TestCorpus", "./roundtrip")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOPROXY=off")
	start = time.Now()
	out, err := cmd.CombinedOutput()
	t.Logf("go test in the scratch module: %v", time.Since(start).Round(time.Millisecond))
	if err != nil {
		t.Fatalf("the corpus's round trips: %v\n%s", err, tail(string(out), 60))
	}
	total := 0
	for _, ds := range docs {
		total += len(ds)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.Contains(line, "round trips:") || strings.Contains(line, "--- PASS: TestCorpus") {
			t.Log(strings.TrimSpace(line))
		}
	}
	if want := fmt.Sprintf("%d documents", total); !strings.Contains(string(out), want) {
		t.Errorf("the scratch test did not report %s:\n%s", want, tail(string(out), 30))
	}
}

// corpusDocuments are the agreement corpus's documents by kind (the Go
// type's name), each once, apiVersion and kind removed as the API server
// sends them to a conversion webhook.
func corpusDocuments(t *testing.T) map[string][]json.RawMessage {
	t.Helper()
	root := testkit.Root(t)
	suite, err := agree.Suite()
	if err != nil {
		t.Fatal(err)
	}
	hs := []*agree.Harness{suite}
	for _, c := range []struct {
		dir string
		typ reflect.Type
	}{{"shapes", reflect.TypeOf(shapes.Shapes{})}, {"exact", reflect.TypeOf(exact.Exact{})}} {
		h, err := agree.New(agree.Config{Dir: filepath.Join(root, "agree", "testdata", c.dir), Types: []reflect.Type{c.typ}})
		if err != nil {
			t.Fatal(err)
		}
		hs = append(hs, h)
	}
	out := map[string][]json.RawMessage{}
	seen := map[string]bool{}
	for _, h := range hs {
		for _, c := range h.Cases() {
			var doc map[string]any
			if err := json.Unmarshal(c.Doc, &doc); err != nil {
				t.Fatalf("%s %s %s: %v", c.Type, c.Field, c.Probe, err)
			}
			delete(doc, "apiVersion")
			delete(doc, "kind")
			data, err := json.Marshal(doc)
			if err != nil {
				t.Fatal(err)
			}
			_, kind, _ := strings.Cut(c.Type, ".")
			if seen[kind+string(data)] {
				continue // probes of several fields can make one document
			}
			seen[kind+string(data)] = true
			out[kind] = append(out[kind], data)
		}
	}
	if len(out) < 20 {
		t.Fatalf("the corpus has documents of %d types, want the suite's kinds and the two shapes", len(out))
	}
	return out
}

func tail(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// roundTripSource is the scratch module's test: every document of every
// kind through every variant's pair.
func roundTripSource(kinds []string) string {
	var b strings.Builder
	b.WriteString(`package roundtrip

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"sort"
	"testing"
	"time"

	"sigs.k8s.io/controller-runtime/pkg/conversion"
`)
	for _, v := range corpusVariants {
		fmt.Fprintf(&b, "\t%[1]sv1 \"example.com/roundtrip/%[1]s/v1\"\n\t%[1]sv1alpha1 \"example.com/roundtrip/%[1]s/v1alpha1\"\n", v.name)
	}
	b.WriteString(")\n\n// pair makes an empty spoke and hub object of one kind.\ntype pair struct {\n\tspoke func() conversion.Convertible\n\thub   func() conversion.Hub\n}\n\nvar variants = map[string]map[string]pair{\n")
	for _, v := range corpusVariants {
		fmt.Fprintf(&b, "\t%q: {\n", v.name)
		for _, k := range kinds {
			fmt.Fprintf(&b, "\t\t%[1]q: {func() conversion.Convertible { return &%[2]sv1alpha1.%[1]s{} }, func() conversion.Hub { return &%[2]sv1.%[1]s{} }},\n", k, v.name)
		}
		b.WriteString("\t},\n")
	}
	b.WriteString("}\n")
	b.WriteString(roundTripBody)
	return b.String()
}

const roundTripBody = `
// TestCorpus decodes every document into the spoke and into the hub of
// every variant and converts it there and back: the object must come back
// equal, as a Go value and as JSON. A document a version cannot decode (a
// wrong type, a value out of range: the API server refuses it before any
// conversion) is counted, not converted.
func TestCorpus(t *testing.T) {
	data, err := os.ReadFile("testdata/docs.json")
	if err != nil {
		t.Fatal(err)
	}
	var docs map[string][]json.RawMessage
	if err := json.Unmarshal(data, &docs); err != nil {
		t.Fatal(err)
	}
	var kinds []string
	total := 0
	for k, ds := range docs {
		kinds = append(kinds, k)
		total += len(ds)
	}
	sort.Strings(kinds)
	for _, name := range []string{"same", "lacks", "adds"} {
		pairs := variants[name]
		trips, undecoded, failed := 0, 0, 0
		for _, kind := range kinds {
			p, ok := pairs[kind]
			if !ok {
				t.Fatalf("%s: no pair of kind %s", name, kind)
			}
			for i, doc := range docs[kind] {
				where := fmt.Sprintf("%s %s document %d %s", name, kind, i, doc)
				for _, spokeFirst := range []bool{true, false} {
					ok, err := trip(p, doc, spokeFirst)
					switch {
					case err != nil:
						failed++
						if failed <= 20 {
							t.Errorf("%s: %v", where, err)
						}
					case ok:
						trips++
					default:
						undecoded++
					}
				}
			}
		}
		fmt.Printf("%s round trips: %d documents, %d round trips made, %d documents a version cannot decode, %d failed\n", name, total, trips, undecoded, failed)
		if trips == 0 {
			t.Errorf("%s: no round trip was made", name)
		}
	}
}

// trip makes one round trip, spoke → hub → spoke or hub → spoke → hub; it
// reports false for a document the first version cannot decode.
func trip(p pair, doc []byte, spokeFirst bool) (bool, error) {
	if spokeFirst {
		in, mid, back := p.spoke(), p.hub(), p.spoke()
		if json.Unmarshal(doc, in) != nil {
			return false, nil
		}
		want, _ := decode(doc, p.spoke())
		if err := in.ConvertTo(mid); err != nil {
			return true, fmt.Errorf("spoke → hub: %v", err)
		}
		if err := back.ConvertFrom(mid); err != nil {
			return true, fmt.Errorf("hub → spoke: %v", err)
		}
		return true, same("spoke → hub → spoke", want, back, in)
	}
	in, mid, back := p.hub(), p.spoke(), p.hub()
	if json.Unmarshal(doc, in) != nil {
		return false, nil
	}
	want, _ := decode(doc, p.hub())
	if err := mid.ConvertFrom(in); err != nil {
		return true, fmt.Errorf("hub → spoke: %v", err)
	}
	if err := mid.ConvertTo(back); err != nil {
		return true, fmt.Errorf("spoke → hub: %v", err)
	}
	return true, same("hub → spoke → hub", want, back, in)
}

func decode(doc []byte, obj any) (any, error) {
	return obj, json.Unmarshal(doc, obj)
}

// same compares the object decoded afresh (want), the object converted
// back (got) and the input (which a conversion must not change), as Go
// values and as JSON.
func same(trip string, want, got, in any) error {
	w, err := json.Marshal(want)
	if err != nil {
		return err
	}
	g, err := json.Marshal(got)
	if err != nil {
		return err
	}
	if string(w) != string(g) {
		return fmt.Errorf("%s changed the JSON:\nbefore %s\nafter  %s", trip, w, g)
	}
	if path, ok := equal(reflect.ValueOf(want), reflect.ValueOf(got), ""); !ok {
		return fmt.Errorf("%s changed the Go value at %s (the JSON is the same: %s)", trip, path, w)
	}
	if path, ok := equal(reflect.ValueOf(want), reflect.ValueOf(in), ""); !ok {
		return fmt.Errorf("%s changed its input at %s", trip, path)
	}
	return nil
}

var (
	timeType  = reflect.TypeOf(time.Time{})
	marshaler = reflect.TypeOf((*json.Marshaler)(nil)).Elem()
)

func marshal(v reflect.Value) []byte {
	p := reflect.New(v.Type())
	p.Elem().Set(v)
	data, err := json.Marshal(p.Interface())
	if err != nil {
		return []byte(err.Error())
	}
	return data
}

// equal is reflect.DeepEqual (nil and empty differ, pointers compare their
// targets) that compares time.Time as instants and a type with its own
// MarshalJSON by its JSON, and says where two values differ.
func equal(a, b reflect.Value, path string) (string, bool) {
	if a.IsValid() != b.IsValid() {
		return path, false
	}
	if !a.IsValid() {
		return "", true
	}
	if a.Type() != b.Type() {
		return path + " (type)", false
	}
	if a.Type() == timeType {
		return path, a.Interface().(time.Time).Equal(b.Interface().(time.Time))
	}
	if a.Type().Implements(marshaler) || reflect.PointerTo(a.Type()).Implements(marshaler) {
		// a type with its own JSON form is the value its JSON says:
		// metav1.Time is whole seconds in JSON, through any client
		return path, string(marshal(a)) == string(marshal(b))
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return path, a.IsNil() == b.IsNil()
		}
		return equal(a.Elem(), b.Elem(), path)
	case reflect.Struct:
		for i := range a.NumField() {
			if !a.Type().Field(i).IsExported() {
				continue
			}
			if p, ok := equal(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name); !ok {
				return p, false
			}
		}
		return "", true
	case reflect.Slice:
		if a.IsNil() != b.IsNil() {
			return path + " (nil and empty)", false
		}
		fallthrough
	case reflect.Array:
		if a.Len() != b.Len() {
			return path + " (length)", false
		}
		for i := range a.Len() {
			if p, ok := equal(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i)); !ok {
				return p, false
			}
		}
		return "", true
	case reflect.Map:
		if a.IsNil() != b.IsNil() {
			return path + " (nil and empty)", false
		}
		if a.Len() != b.Len() {
			return path + " (length)", false
		}
		for _, k := range a.MapKeys() {
			bv := b.MapIndex(k)
			if !bv.IsValid() {
				return fmt.Sprintf("%s[%v]", path, k), false
			}
			if p, ok := equal(a.MapIndex(k), bv, fmt.Sprintf("%s[%v]", path, k)); !ok {
				return p, false
			}
		}
		return "", true
	}
	return path, a.Interface() == b.Interface()
}
`
