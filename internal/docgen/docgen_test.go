package docgen

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/modelgen/modelgen/model"

	"github.com/modelgen/modelgen/internal/testkit"
)

var readme = filepath.Join("..", "..", "README.md")

// TestREADMETagTable fails when README.md's tag table is not the one the
// registry renders; -update rewrites it.
func TestREADMETagTable(t *testing.T) {
	data, err := os.ReadFile(readme)
	if os.IsNotExist(err) && testkit.Update() {
		data, err = []byte("## Tag reference\n\n"+BeginMarker+"\n"+EndMarker+"\n"), nil
	}
	if err != nil {
		t.Fatal(err)
	}
	table := TagTable()
	if testkit.Update() {
		doc, err := ReplaceSection(string(data), table)
		if err != nil {
			t.Fatalf("%s: %v", readme, err)
		}
		if doc != string(data) {
			if err := os.WriteFile(readme, []byte(doc), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	got, err := Section(string(data))
	if err != nil {
		t.Fatalf("%s: %v", readme, err)
	}
	if got != table {
		t.Errorf("%s: the tag table differs from the keyword registry; run go test ./internal/docgen -update", readme)
	}
}

// unescapedPipe splits a table row into cells the way GitHub does.
var unescapedPipe = regexp.MustCompile(`(^|[^\\])\|`)

func TestTagTableRows(t *testing.T) {
	rows := map[string]string{}
	for _, line := range strings.Split(TagTable(), "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		if n := len(unescapedPipe.FindAllString(line, -1)); n != 5 && n != 3 {
			t.Errorf("row splits into the wrong number of cells (%d pipes): %s", n, line)
		}
		name := strings.SplitN(line, "`", 3)[1]
		if _, dup := rows[name]; dup {
			t.Errorf("%s has two rows", name)
		}
		rows[name] = line
	}
	for _, k := range model.Keywords() {
		row, ok := rows[k.Name()]
		if !ok {
			t.Errorf("keyword %s has no row", k.Name())
			continue
		}
		if !strings.Contains(row, "| "+className(k.Class())+" |") {
			t.Errorf("row of %s does not give its class %q: %s", k.Name(), className(k.Class()), row)
		}
	}
	for alias, expansion := range model.Aliases {
		if row, ok := rows[alias]; !ok || !strings.Contains(row, cell(expansion)) {
			t.Errorf("alias %s: row %q does not give its expansion", alias, row)
		}
	}
	if len(rows) != len(model.Keywords())+len(model.Aliases) {
		t.Errorf("%d rows for %d keywords and %d aliases", len(rows), len(model.Keywords()), len(model.Aliases))
	}
}

func TestReplaceSection(t *testing.T) {
	doc := "# T\n\n" + BeginMarker + "\nold\n" + EndMarker + "\nafter\n"
	got, err := ReplaceSection(doc, "new\n")
	if err != nil {
		t.Fatal(err)
	}
	if want := "# T\n\n" + BeginMarker + "\nnew\n" + EndMarker + "\nafter\n"; got != want {
		t.Errorf("ReplaceSection = %q, want %q", got, want)
	}
	if s, _ := Section(got); s != "new\n" {
		t.Errorf("Section = %q", s)
	}
	for _, bad := range []string{"no markers", EndMarker + BeginMarker, BeginMarker + EndMarker + BeginMarker + EndMarker} {
		if _, err := ReplaceSection(bad, "x"); err == nil {
			t.Errorf("ReplaceSection(%q) accepted broken markers", bad)
		}
	}
}
