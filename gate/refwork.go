package gate

import (
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// checkRefWork bounds the work of loading and validating a document, before
// kin-openapi starts: kin-openapi resolves and validates a referenced schema
// again at every $ref to it, so 3000 operations sharing one 3000-property
// component cost it 9 million schema visits from 1 MB. The count is the
// document's mappings with every local $ref replaced by what it points to
// (memoized per target, a cycle counted once), linear in the document. A
// schema is about two mappings (itself and its properties), so more than
// twice Limits.MaxSchemaPairs is refused.
func checkRefWork(root *yaml.Node, lim Limits) error {
	doc := deref(root)
	if doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 {
		doc = deref(doc.Content[0])
	}
	r := refWork{root: doc, memo: map[*yaml.Node]int{}, open: map[*yaml.Node]bool{}}
	if n := r.size(doc); n > satMulInt(2, lim.MaxSchemaPairs) {
		return &LimitError{Msg: fmt.Sprintf("loading this document would visit %s YAML mappings ($refs followed), more than twice the limit of %d schema pairs",
			approx(n), lim.MaxSchemaPairs), Flag: "max-schema-pairs"}
	}
	return nil
}

type refWork struct {
	root *yaml.Node
	memo map[*yaml.Node]int
	open map[*yaml.Node]bool
}

// size counts the mappings under n, a $ref standing for its target.
func (r *refWork) size(n *yaml.Node) int {
	n = deref(n)
	if c, ok := r.memo[n]; ok {
		return c
	}
	if r.open[n] {
		return 1
	}
	r.open[n] = true
	c := 0
	if n.Kind == yaml.MappingNode {
		c = 1
		for i := 0; i+1 < len(n.Content); i += 2 {
			key, val := deref(n.Content[i]), deref(n.Content[i+1])
			if key.Kind == yaml.ScalarNode && key.Value == "$ref" && val.Kind == yaml.ScalarNode {
				if target := r.resolve(val.Value); target != nil {
					c = satAddInt(c, r.size(target))
				}
				continue
			}
			c = satAddInt(c, r.size(val))
		}
	} else {
		for _, child := range n.Content {
			c = satAddInt(c, r.size(child))
		}
	}
	delete(r.open, n)
	r.memo[n] = c
	return c
}

// resolve follows a local JSON pointer (#/a/b) through the mappings.
func (r *refWork) resolve(ref string) *yaml.Node {
	rest, ok := strings.CutPrefix(ref, "#/")
	if !ok {
		return nil
	}
	n := r.root
	for token := range strings.SplitSeq(rest, "/") {
		token = strings.NewReplacer("~1", "/", "~0", "~").Replace(token)
		if n.Kind != yaml.MappingNode {
			return nil
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if deref(n.Content[i]).Value == token {
				next = deref(n.Content[i+1])
				break
			}
		}
		if next == nil {
			return nil
		}
		n = next
	}
	return n
}
