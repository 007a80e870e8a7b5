package gate

import (
	"fmt"
	"math"

	"github.com/getkin/kin-openapi/openapi3"
)

// oasdiff's work is not bounded by a document's size: it diffs a schema
// again for every operation that reaches it (3000 paths sharing one
// 3000-property component is 9 million property diffs from 1 MB), it pairs
// every anyOf or oneOf branch with every branch on the other side to find
// the best match (an anyOf of 1000 branches is a million branch diffs from
// 93 KB), and merging an allOf whose members hold anyOf or oneOf multiplies
// their branches. workEstimate counts that work, on one document, before
// oasdiff starts: linear in the document, memoized per schema.
type workEstimate struct {
	memo map[*openapi3.Schema]int
	open map[*openapi3.Schema]bool
}

// branchPairWeight is what one anyOf or oneOf branch pair costs oasdiff
// against one schema diff of an operation: measured, an anyOf of 1000
// two-schema branches (2 million pairs) took 78 to 117 s (40 to 58 µs a
// pair), where a 16 MB contract of 780 thousand operation schemas takes
// about 5 s (6.4 µs each). At the default limit either is about 5 to 6 s.
const branchPairWeight = 8

// maxWork is where a sum saturates, far above any limit.
const maxWork = math.MaxInt / 4

func satAddInt(a, b int) int {
	if a > maxWork-b {
		return maxWork
	}
	return a + b
}

func satMulInt(a, b int) int {
	if a != 0 && b > maxWork/a {
		return maxWork
	}
	return a * b
}

// checkWork refuses a pair of documents whose comparison would visit more
// than lim.MaxSchemaPairs schema pairs, with the flag that raises the limit.
func checkWork(base, revision *openapi3.T, lim Limits) error {
	for _, side := range []struct {
		name string
		doc  *openapi3.T
	}{{"base", base}, {"revision", revision}} {
		if n := estimateWork(side.doc); n > lim.MaxSchemaPairs {
			return &LimitError{Msg: fmt.Sprintf("%s: comparing this document would visit at least %s schema pairs (every operation's schemas, anyOf and oneOf branches paired with each other, allOf merges), more than the limit of %d",
				side.name, approx(n), lim.MaxSchemaPairs), Flag: "max-schema-pairs"}
		}
	}
	return nil
}

func approx(n int) string {
	if n >= maxWork {
		return "more than 10^18"
	}
	return fmt.Sprintf("%.3g", float64(n))
}

// estimateWork sums, over every request and response body, the schemas
// oasdiff visits from it.
func estimateWork(doc *openapi3.T) int {
	w := &workEstimate{memo: map[*openapi3.Schema]int{}, open: map[*openapi3.Schema]bool{}}
	total := 0
	forEachBody(doc, func(_ operation, _ string, media *openapi3.MediaType) {
		total = satAddInt(total, w.cost(media.Schema))
	})
	if doc.Components != nil {
		for _, name := range sortedKeys(doc.Components.Schemas) {
			total = satAddInt(total, w.cost(doc.Components.Schemas[name]))
		}
	}
	return total
}

// cost is the number of schema diffs oasdiff makes from one schema: itself,
// its children, every anyOf and oneOf branch once per branch of the other
// side (taken to have as many), and the branch combinations an allOf merge
// makes. A cycle counts once.
func (w *workEstimate) cost(ref *openapi3.SchemaRef) int {
	if ref == nil || ref.Value == nil {
		return 0
	}
	s := ref.Value
	if c, ok := w.memo[s]; ok {
		return c
	}
	if w.open[s] {
		return 1
	}
	w.open[s] = true
	c := 1
	for _, name := range sortedKeys(s.Properties) {
		c = satAddInt(c, w.cost(s.Properties[name]))
	}
	c = satAddInt(c, w.cost(s.Items))
	c = satAddInt(c, w.cost(s.AdditionalProperties.Schema))
	c = satAddInt(c, w.cost(s.Not))
	for _, m := range s.AllOf {
		c = satAddInt(c, w.cost(m))
	}
	for _, alts := range []openapi3.SchemaRefs{s.AnyOf, s.OneOf} {
		for _, b := range alts {
			c = satAddInt(c, satMulInt(branchPairWeight*len(alts), w.cost(b)))
		}
	}
	combinations := 1
	for _, m := range s.AllOf {
		if m != nil && m.Value != nil {
			combinations = satMulInt(combinations, max(1, len(m.Value.AnyOf)))
			combinations = satMulInt(combinations, max(1, len(m.Value.OneOf)))
		}
	}
	if combinations > 1 {
		c = satAddInt(c, combinations)
	}
	delete(w.open, s)
	w.memo[s] = c
	return c
}
