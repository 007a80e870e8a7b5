package gate

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// scanDocument checks a document before anything decodes it: it parses the
// YAML (or JSON) into a node tree, which keeps aliases unexpanded, and
// refuses
//   - more aliases than the limit, or aliases whose expansion would add more
//     nodes than the limit (a "billion laughs" bomb is refused here, in
//     time linear in its size, before any decoder expands it);
//   - a $ref that leaves the document (a file, by absolute path or "..", or
//     a URL): the error names the reference and never reads it;
//   - any version but OpenAPI 3.0 (2.0 "swagger" and 3.1 documents).
func scanDocument(data []byte, lim Limits) error {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return fmt.Errorf("not a readable YAML or JSON document: %w", err)
	}
	if err := checkAliases(&root, lim); err != nil {
		return err
	}
	if err := checkNesting(&root, lim); err != nil {
		return err
	}
	if err := checkRefs(&root); err != nil {
		return err
	}
	if err := checkRefWork(&root, lim); err != nil {
		return err
	}
	return checkVersion(&root)
}

// checkAliases counts the aliases of the tree and the nodes their expansion
// would add, memoizing each anchor's expanded size, so the count itself is
// linear in the tree. An anchor that contains an alias to itself is refused:
// it has no finite expansion.
func checkAliases(root *yaml.Node, lim Limits) error {
	return (&aliasBudget{}).check(root, lim)
}

// aliasBudget counts the aliases of several documents against one limit:
// the CRD gate reads every document of a side (all its files) as one
// input, so many documents cannot each spend a whole budget.
type aliasBudget struct {
	side     bool // the documents of a side, not one document
	aliases  int
	expanded int64
}

// check adds the aliases of root, and the nodes they would add once
// expanded, to the budget, and refuses the input once it is spent.
func (b *aliasBudget) check(root *yaml.Node, lim Limits) error {
	a := aliasCounter{size: map[*yaml.Node]int64{}, open: map[*yaml.Node]bool{}}
	a.visit(root)
	b.aliases += a.aliases
	b.expanded = satAdd(b.expanded, a.expanded)
	switch {
	case a.err != nil:
		return a.err
	case b.aliases > lim.MaxAliases && b.side:
		return &LimitError{Msg: fmt.Sprintf("the documents of this side use %d YAML aliases up to here, more than the limit of %d for all of them", b.aliases, lim.MaxAliases), Flag: "max-yaml-aliases"}
	case b.aliases > lim.MaxAliases:
		return &LimitError{Msg: fmt.Sprintf("the document uses %d YAML aliases, more than the limit of %d", b.aliases, lim.MaxAliases), Flag: "max-yaml-aliases"}
	case b.expanded > int64(lim.MaxAliasNodes) && b.side:
		return &LimitError{Msg: fmt.Sprintf("the YAML aliases of this side's documents up to here would add at least %.3g nodes once expanded (limit %d for all of them); refused before expanding them", float64(b.expanded), lim.MaxAliasNodes), Flag: "max-yaml-alias-nodes"}
	case b.expanded > int64(lim.MaxAliasNodes):
		return &LimitError{Msg: fmt.Sprintf("the document's YAML aliases would add at least %.3g nodes once expanded (limit %d); refused before expanding them", float64(b.expanded), lim.MaxAliasNodes), Flag: "max-yaml-alias-nodes"}
	}
	return nil
}

type aliasCounter struct {
	size     map[*yaml.Node]int64 // expanded size of a node, once known
	open     map[*yaml.Node]bool  // nodes being sized (a cycle if met again)
	aliases  int
	expanded int64
	err      error
}

// visit walks the literal tree, counting each alias and what it expands to.
func (a *aliasCounter) visit(n *yaml.Node) {
	if n == nil || a.err != nil {
		return
	}
	if n.Kind == yaml.AliasNode {
		a.aliases++
		a.expanded = satAdd(a.expanded, a.expandedSize(n.Alias))
		return
	}
	for _, c := range n.Content {
		a.visit(c)
	}
}

// expandedSize is the number of nodes n stands for once every alias in it
// is replaced by its anchor's tree. Sums saturate instead of overflowing.
func (a *aliasCounter) expandedSize(n *yaml.Node) int64 {
	if n == nil {
		return 0
	}
	if n.Kind == yaml.AliasNode {
		return a.expandedSize(n.Alias)
	}
	if s, ok := a.size[n]; ok {
		return s
	}
	if a.open[n] {
		if a.err == nil {
			a.err = fmt.Errorf("line %d, column %d: a YAML alias refers to an anchor that contains it; it has no finite expansion", n.Line, n.Column)
		}
		return math.MaxInt64 / 2
	}
	a.open[n] = true
	size := int64(1)
	for _, c := range n.Content {
		size = satAdd(size, a.expandedSize(c))
	}
	delete(a.open, n)
	a.size[n] = size
	return size
}

func satAdd(x, y int64) int64 {
	if x > math.MaxInt64/2-y {
		return math.MaxInt64 / 2
	}
	return x + y
}

// yamlLevelsPerSchema and yamlLevelsAroundSchemas bound how deep the YAML of
// a document whose schemas nest Limits.MaxDepth deep can be: a nested schema
// takes at most two levels ("properties", then the name), and the path to a
// body's schema about a dozen.
const (
	yamlLevelsPerSchema     = 2
	yamlLevelsAroundSchemas = 40
)

// checkNesting refuses a document whose YAML nests deeper than schemas
// within the depth limit could, before kin-openapi and oasdiff spend time
// (oasdiff: with the square of the depth) on it. The exact schema depth,
// through $refs, is checked once the document is loaded.
func checkNesting(root *yaml.Node, lim Limits) error {
	allowed := yamlLevelsPerSchema*lim.MaxDepth + yamlLevelsAroundSchemas
	memo := map[*yaml.Node]int{}
	if h := yamlHeight(root, memo); h > allowed {
		return &LimitError{Msg: fmt.Sprintf("the document nests %d levels deep; schemas nested at most %d deep allow %d", h, lim.MaxDepth, allowed), Flag: "max-schema-depth"}
	}
	return nil
}

// yamlHeight is the depth of the tree under n, aliases expanded (their
// anchors' heights memoized; checkAliases has refused recursive ones).
func yamlHeight(n *yaml.Node, memo map[*yaml.Node]int) int {
	if n == nil {
		return 0
	}
	if n.Kind == yaml.AliasNode {
		if h, ok := memo[n.Alias]; ok {
			return h
		}
		h := yamlHeight(n.Alias, memo)
		memo[n.Alias] = h
		return h
	}
	h := 0
	for _, c := range n.Content {
		h = max(h, yamlHeight(c, memo))
	}
	return h + 1
}

// checkRefs refuses every $ref that does not point inside the document.
// The gate judges one document per side: a reference to another file would
// read outside what the user gave (or, from git, today's working tree).
func checkRefs(n *yaml.Node) error {
	var errs []error
	walkNodes(n, func(m *yaml.Node) {
		if m.Kind != yaml.MappingNode {
			return
		}
		for i := 0; i+1 < len(m.Content); i += 2 {
			key, val := deref(m.Content[i]), deref(m.Content[i+1])
			if key.Value != "$ref" || key.Kind != yaml.ScalarNode {
				continue
			}
			if val.Kind != yaml.ScalarNode {
				errs = append(errs, fmt.Errorf("line %d, column %d: $ref must be a string", val.Line, val.Column))
			} else if val.Value != "#" && !strings.HasPrefix(val.Value, "#/") {
				errs = append(errs, fmt.Errorf("line %d, column %d: $ref %s points outside the document; "+
					"the gate reads one self-contained document per side and follows only local references (#/...): bundle the contract first",
					val.Line, val.Column, quoteShort(val.Value)))
			}
			if len(errs) >= 10 {
				return
			}
		}
	})
	return errors.Join(errs...)
}

// deref follows an alias to its anchor, so that "*k: value" with an anchor
// k: "$ref" is seen as the $ref it decodes to.
func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 100; i++ {
		n = n.Alias
	}
	if n == nil {
		return &yaml.Node{}
	}
	return n
}

// walkNodes calls f on every node of the literal tree (aliases are not
// followed: their anchors are visited where they are written).
func walkNodes(n *yaml.Node, f func(*yaml.Node)) {
	if n == nil || n.Kind == yaml.AliasNode {
		return
	}
	f(n)
	for _, c := range n.Content {
		walkNodes(c, f)
	}
}

var openAPI30 = regexp.MustCompile(`^3\.0\.\d+$`)

// checkVersion accepts OpenAPI 3.0.x only: the gate's rules, kin-openapi's
// validation and oasdiff's checks are written for 3.0.
func checkVersion(root *yaml.Node) error {
	doc := root
	if doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 {
		doc = doc.Content[0]
	}
	if doc.Kind != yaml.MappingNode {
		return errors.New("not an OpenAPI document: the top level is not a mapping")
	}
	if v, ok := topScalar(doc, "swagger"); ok {
		return fmt.Errorf("this is a Swagger/OpenAPI 2.0 document (swagger: %s); the gate judges OpenAPI 3.0 documents only: convert it to 3.0 first", quoteShort(v))
	}
	v, ok := topScalar(doc, "openapi")
	switch {
	case !ok:
		return errors.New("not an OpenAPI 3.0 document: it has no openapi: 3.0.x field")
	case strings.HasPrefix(v, "3.1"):
		return fmt.Errorf("this is an OpenAPI %s document; the gate judges OpenAPI 3.0 documents only (its rules and oasdiff's are written for 3.0; 3.1 changes nullability, exclusive bounds and $ref siblings)", quoteShort(v))
	case !openAPI30.MatchString(v):
		return fmt.Errorf("openapi: %s is not a version the gate judges; want 3.0.x", quoteShort(v))
	}
	return nil
}

func topScalar(m *yaml.Node, key string) (string, bool) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key && m.Content[i+1].Kind == yaml.ScalarNode {
			return m.Content[i+1].Value, true
		}
	}
	return "", false
}

// quoteShort quotes a value from the document, cut to a readable length.
func quoteShort(s string) string {
	const max = 120
	if len(s) > max {
		return fmt.Sprintf("%q…", s[:max])
	}
	return fmt.Sprintf("%q", s)
}
