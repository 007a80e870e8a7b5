package agree_test

import (
	"fmt"
	"maps"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/modelgen/modelgen/agree"
	"github.com/modelgen/modelgen/agree/internal/cases"
	"github.com/modelgen/modelgen/model"

	"github.com/modelgen/modelgen/internal/testkit"
)

// suite is the table of the agreement test: one resource per kind, each
// declaring every keyword the registry maps on that kind (see
// internal/cases, generated from the registry by TestCasesAreCurrent).
var suite = []struct {
	name string
	typ  reflect.Type
}{
	{"string", reflect.TypeOf(cases.Strings{})},
	{"*string", reflect.TypeOf(cases.StringPointers{})},
	{"int", reflect.TypeOf(cases.Ints{})},
	{"int32", reflect.TypeOf(cases.Int32s{})},
	{"uint8", reflect.TypeOf(cases.Uint8s{})},
	{"*int64", reflect.TypeOf(cases.IntPointers{})},
	{"float64", reflect.TypeOf(cases.Floats{})},
	{"float32", reflect.TypeOf(cases.Float32s{})},
	{"bool", reflect.TypeOf(cases.Bools{})},
	{"time.Duration", reflect.TypeOf(cases.Durations{})},
	{"time.Time", reflect.TypeOf(cases.Times{})},
	{"metav1.Time", reflect.TypeOf(cases.MetaTimes{})},
	{"[]string", reflect.TypeOf(cases.Slices{})},
	{"map[string]string", reflect.TypeOf(cases.Maps{})},
	{"[]byte", reflect.TypeOf(cases.Bytes{})},
	{"struct", reflect.TypeOf(cases.Structs{})},
	{"*struct", reflect.TypeOf(cases.StructPointers{})},
	{"list elements (dive)", reflect.TypeOf(cases.Elements{})},
	{"map keys (keys)", reflect.TypeOf(cases.Keys{})},
}

// harness loads the cases once for every test of the package.
var harness = sync.OnceValues(agree.Suite)

// TestSuiteTable keeps the table in step with the library's suite.
func TestSuiteTable(t *testing.T) {
	types := agree.SuiteTypes()
	if len(types) != len(suite) {
		t.Fatalf("the table has %d rows, agree.SuiteTypes %d types", len(suite), len(types))
	}
	for i, row := range suite {
		if row.typ != types[i] {
			t.Errorf("row %d is %s, agree.SuiteTypes has %s", i, row.typ, types[i])
		}
	}
}

var report = sync.OnceValues(func() (*agree.Report, error) {
	h, err := harness()
	if err != nil {
		return nil, err
	}
	return h.Run(), nil
})

func casesReport(t *testing.T) (*agree.Harness, *agree.Report) {
	t.Helper()
	if testing.Short() && !testkit.Update() {
		t.Skip("judges the whole agreement suite, minutes on 2 cores (-short; -update still runs it)")
	}
	h, err := harness()
	if err != nil {
		t.Fatal(err)
	}
	r, _ := report()
	return h, r
}

// TestKeywordAgreement judges every boundary document of every mapped
// keyword on every kind it applies to, three ways, and fails on any
// divergence no category or documented exception explains.
func TestKeywordAgreement(t *testing.T) {
	_, r := casesReport(t)
	t.Log(r.Summary())
	byType := map[string][]agree.Judgement{}
	for _, d := range r.Unlisted() {
		byType[d.Type] = append(byType[d.Type], d)
	}
	for _, row := range suite {
		t.Run(row.name, func(t *testing.T) {
			name := "cases." + row.typ.Name()
			for i, d := range byType[name] {
				if i == 20 {
					t.Errorf("... and %d more", len(byType[name])-20)
					break
				}
				t.Errorf("unlisted divergence: %s", d.String())
			}
		})
	}
}

// mappedPairs is every keyword/kind pair the registry maps, as the cases
// declare them.
func mappedPairs() map[string]bool {
	pairs := map[string]bool{}
	for _, ck := range caseKinds {
		for _, kw := range mapped() {
			for _, p := range params(kw.Name(), ck.ref.Deref().Kind) {
				if applies(kw, p, ck) {
					pairs[kw.Name()+"/"+ck.ref.Deref().Kind.String()] = true
				}
			}
		}
	}
	return pairs
}

// TestCoverage demands that every keyword the registry maps was probed, on
// every kind whose Resolve accepts it.
func TestCoverage(t *testing.T) {
	_, r := casesReport(t)
	covered := map[string]bool{}
	for _, p := range r.Covered {
		covered[p] = true
	}
	for p := range mappedPairs() {
		if !covered[p] {
			t.Errorf("keyword/kind %s is mapped by the registry but no document probed it", p)
		}
	}
	seen := map[string]bool{}
	for p := range covered {
		seen[strings.Split(p, "/")[0]] = true
	}
	for _, kw := range mapped() {
		if !seen[kw.Name()] {
			t.Errorf("keyword %s is mapped by the registry but never probed", kw.Name())
		}
	}
}

var countsRe = regexp.MustCompile(`(?s)<!-- BEGIN AGREEMENT COUNTS -->.*<!-- END AGREEMENT COUNTS -->`)

// TestAgreementCounts keeps docs/agreement.md's counts table true: every
// figure in it is the suite's, and it states zero unlisted divergences
// (-update rewrites the table).
func TestAgreementCounts(t *testing.T) {
	_, r := casesReport(t)
	want := renderCounts(r)
	path := "../docs/agreement.md"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := countsRe.Find(data)
	if got == nil {
		t.Fatalf("%s has no agreement counts markers", path)
	}
	if testkit.Update() {
		if err := os.WriteFile(path, countsRe.ReplaceAll(data, []byte(want)), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if string(got) != want {
		t.Errorf("%s: the agreement counts are stale: run ./hack/update.sh\ngot:\n%s\nwant:\n%s", path, got, want)
	}
	if len(r.Unlisted()) > 0 {
		t.Errorf("%s states zero unlisted divergences, the suite finds %d", path, len(r.Unlisted()))
	}
}

func keywordsLine() string {
	return "| validate keywords the registry maps (schema or CEL) | " + strconv.Itoa(len(mapped())) + " |"
}

func pairsLine() string {
	return "| keyword × kind pairs probed | " + strconv.Itoa(len(mappedPairs())) + " |"
}

func renderCounts(r *agree.Report) string {
	var b strings.Builder
	b.WriteString("<!-- BEGIN AGREEMENT COUNTS -->\n| | |\n|---|---|\n")
	b.WriteString(keywordsLine() + "\n" + pairsLine() + "\n")
	fmt.Fprintf(&b, "| types (one per kind), constrained fields | %d, %d |\n", len(r.Types), r.Fields)
	fmt.Fprintf(&b, "| documents judged, each by validator, OpenAPI, CRD and server (CRD + webhook) | %d |\n", r.Documents)
	reasons := r.ByReason()
	for _, k := range slices.Sorted(maps.Keys(reasons)) {
		fmt.Fprintf(&b, "| listed divergences, %s | %d |\n", k, reasons[k])
	}
	runtimeOnly, refused := 0, 0
	for _, d := range r.Divergences {
		if slices.Contains(d.Listed, "crd: "+agree.RuntimeOnly) {
			runtimeOnly++
			if d.Server.Accept == d.Validator.Accept {
				refused++
			}
		}
	}
	fmt.Fprintf(&b, "| runtime-only documents the CRD admits, refused by the server (CRD + generated webhook) | %d of %d |\n", refused, runtimeOnly)
	fmt.Fprintf(&b, "| divergences left (unlisted) | %d |\n", len(r.Unlisted()))
	b.WriteString("<!-- END AGREEMENT COUNTS -->")
	return b.String()
}

// TestMappedKeywordsAreDeclared guards the cases generator itself: each
// mapped keyword resolves on at least one kind.
func TestMappedKeywordsAreDeclared(t *testing.T) {
	kinds := map[string]bool{}
	for p := range mappedPairs() {
		kinds[strings.Split(p, "/")[0]] = true
	}
	for _, kw := range mapped() {
		if !kinds[kw.Name()] {
			t.Errorf("%s (%s) applies to none of the case kinds: add a kind or a parameter in cases_gen_test.go", kw.Name(), kw.Class())
		}
	}
	if len(mapped()) == 0 || mapped()[0].Class() == model.Structural {
		t.Fatal("no mapped keywords")
	}
}
