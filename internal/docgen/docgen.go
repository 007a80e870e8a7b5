// Package docgen renders documentation from the keyword registry, so that
// the README's tag reference cannot drift from what the generator does.
//
// There is no command: the test TestREADMETagTable compares README.md's
// section between BeginMarker and EndMarker with TagTable and fails when
// they differ; `go test ./internal/docgen -update` rewrites the section.
package docgen

import (
	"fmt"
	"sort"
	"strings"

	"github.com/modelgen/modelgen/model"
)

// The markers around the generated section of README.md.
const (
	BeginMarker = "<!-- BEGIN TAG TABLE -->"
	EndMarker   = "<!-- END TAG TABLE -->"
)

// TagTable renders every registered validate keyword (in the registry's
// order) and every alias as markdown tables.
func TagTable() string {
	var b strings.Builder
	b.WriteString("| Keyword | Class | What it checks | What it becomes |\n")
	b.WriteString("|---|---|---|---|\n")
	for _, k := range model.Keywords() {
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", k.Name(), className(k.Class()), cell(k.Doc()), cell(k.Schema()))
	}
	b.WriteString("\nAliases expand the way validator expands them, then each keyword applies as above.\n\n")
	b.WriteString("| Alias | Expands to |\n")
	b.WriteString("|---|---|\n")
	aliases := make([]string, 0, len(model.Aliases))
	for name := range model.Aliases {
		aliases = append(aliases, name)
	}
	sort.Strings(aliases)
	for _, name := range aliases {
		fmt.Fprintf(&b, "| `%s` | `%s` |\n", name, cell(model.Aliases[name]))
	}
	return b.String()
}

// className names a class the way the README talks about it.
func className(c model.Class) string {
	switch c {
	case model.Schema:
		return "schema"
	case model.CEL:
		return "CEL"
	case model.Runtime:
		return "runtime only"
	case model.Structural:
		return "structural"
	}
	return c.String()
}

// cell makes text safe inside a table cell: one line, pipes escaped (GitHub
// splits cells on '|' even inside code spans).
func cell(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return strings.ReplaceAll(s, "|", `\|`)
}

// ReplaceSection returns doc with the text between the markers replaced by
// section. It fails when the markers are missing, repeated or out of order.
func ReplaceSection(doc, section string) (string, error) {
	begin, end, err := markers(doc)
	if err != nil {
		return "", err
	}
	return doc[:begin] + BeginMarker + "\n" + section + EndMarker + doc[end+len(EndMarker):], nil
}

// Section returns the text between the markers.
func Section(doc string) (string, error) {
	begin, end, err := markers(doc)
	if err != nil {
		return "", err
	}
	return strings.TrimPrefix(doc[begin+len(BeginMarker):end], "\n"), nil
}

func markers(doc string) (begin, end int, err error) {
	begin, end = strings.Index(doc, BeginMarker), strings.Index(doc, EndMarker)
	switch {
	case begin < 0 || end < 0:
		return 0, 0, fmt.Errorf("markers %s and %s not found", BeginMarker, EndMarker)
	case strings.Count(doc, BeginMarker) > 1 || strings.Count(doc, EndMarker) > 1:
		return 0, 0, fmt.Errorf("markers %s and %s appear more than once", BeginMarker, EndMarker)
	case end < begin:
		return 0, 0, fmt.Errorf("%s comes before %s", EndMarker, BeginMarker)
	}
	return begin, end, nil
}
