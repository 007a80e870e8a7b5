// Package docgen renders reference documentation from the code, so that it
// cannot drift from what the generator does: the tag reference of
// docs/validate-tags.md from the keyword registry (TagTable), and the
// configuration reference of docs/configuration.md from the settings and the
// CLI's flags (ConfigReference).
//
// There is no command: the package's tests compare each page's section
// between its markers with what the code renders and fail when they
// differ; `./hack/update.sh` (or `go test ./internal/docgen -update`)
// rewrites the sections.
package docgen

import (
	"fmt"
	"sort"
	"strings"

	"github.com/modelgen/modelgen/model"
)

// The markers around docs/validate-tags.md's generated tag reference.
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

// className names a class the way the docs talk about it.
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

// ReplaceSection returns doc with the tag table's section replaced.
func ReplaceSection(doc, section string) (string, error) {
	return ReplaceBlock(doc, BeginMarker, EndMarker, section)
}

// Section returns the tag table's section of doc.
func Section(doc string) (string, error) {
	return Block(doc, BeginMarker, EndMarker)
}
