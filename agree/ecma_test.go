package agree

import (
	"encoding/json"
	"regexp"
	"sort"
	"testing"

	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"

	"github.com/modelgen/modelgen/model"
	"github.com/modelgen/modelgen/openapi"
)

// TestPatternsMeanTheSameInECMAScript translates every pattern the keyword
// registry writes (each keyword as the suite declares it, on every kind)
// into the ECMA-262 pattern the OpenAPI document carries, and feeds RE2 and
// an ECMAScript engine (dlclark/regexp2, matching UTF-16 code units) every
// string the agreement suite feeds the judges, plus each pattern's own
// matches and near misses: the verdicts must be equal.
func TestPatternsMeanTheSameInECMAScript(t *testing.T) {
	if testing.Short() {
		t.Skip("feeds every pattern the suite's strings, about a minute (-short)")
	}
	h, err := Suite()
	if err != nil {
		t.Fatal(err)
	}
	patterns := registryPatterns(h.model)
	if len(patterns) < 40 {
		t.Fatalf("found %d patterns in the registry, expected every pattern keyword", len(patterns))
	}
	corpus := caseStrings(t, h)
	t.Logf("%d patterns, %d strings from the agreement cases", len(patterns), len(corpus))
	for _, p := range patterns {
		translated, err := openapi.ECMAPattern(p)
		if err != nil {
			t.Errorf("%q has no ECMA-262 translation: %v", p, err)
			continue
		}
		re, err := openapi.ECMARegexCompiler(translated)
		if err != nil {
			t.Errorf("%q translates to %q, which is not ECMAScript: %v", p, translated, err)
			continue
		}
		re2 := regexp.MustCompile(p)
		matches, misses := patternExamples(p)
		for _, s := range append(append(matches, misses...), corpus...) {
			if want, got := re2.MatchString(s), re.MatchString(s); want != got {
				t.Errorf("%q on %q: RE2 says %v, its ECMAScript form %q says %v", p, s, want, translated, got)
			}
		}
	}
}

// registryPatterns applies every keyword use of the suite's model for a
// CRD (where patterns stay RE2) and collects the patterns of the schemas.
func registryPatterns(m *model.Model) []string {
	seen := map[string]bool{}
	var walk func(s *apiext.JSONSchemaProps)
	walk = func(s *apiext.JSONSchemaProps) {
		if s == nil {
			return
		}
		if s.Pattern != "" {
			seen[s.Pattern] = true
		}
		walk(s.Not)
		for _, l := range [][]apiext.JSONSchemaProps{s.AllOf, s.AnyOf, s.OneOf} {
			for i := range l {
				walk(&l[i])
			}
		}
	}
	var level func(lv *model.Level)
	level = func(lv *model.Level) {
		if lv == nil {
			return
		}
		for _, u := range uses(lv) {
			self, _ := scratch(u, model.TargetCRD)
			walk(&self)
		}
		level(lv.Dive)
		level(lv.Keys)
	}
	for _, t := range m.SortedTypes() {
		for _, f := range t.Fields {
			if f.Validate != nil {
				level(f.Validate.Root)
			}
		}
	}
	var out []string
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// caseStrings is every string value in the agreement suite's documents.
func caseStrings(t *testing.T, h *Harness) []string {
	seen := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			seen[x] = true
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for k, e := range x {
				seen[k] = true
				walk(e)
			}
		}
	}
	for _, c := range h.Cases() {
		var v any
		if err := json.Unmarshal(c.Doc, &v); err != nil {
			t.Fatal(err)
		}
		walk(v)
	}
	var out []string
	for s := range seen {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}
