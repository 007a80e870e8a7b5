package docgen

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/modelgen/modelgen/model"

	"github.com/modelgen/modelgen/cmd/internal/cli"
	"github.com/modelgen/modelgen/internal/testkit"
)

var (
	tagsPage   = filepath.Join("..", "..", "..", "docs", "validate-tags.md")
	configPage = filepath.Join("..", "..", "..", "docs", "configuration.md")
)

// TestTagTablePage fails when docs/validate-tags.md's tag table is not the
// one the registry renders; -update rewrites it.
func TestTagTablePage(t *testing.T) {
	checkBlock(t, tagsPage, BeginMarker, EndMarker, TagTable())
}

// TestConfigurationPage fails when docs/configuration.md's reference is not
// the one the settings of gen/all's keys and the CLI's flags render;
// -update rewrites it.
func TestConfigurationPage(t *testing.T) {
	var help bytes.Buffer
	if code := cli.Run([]string{"generate", "-h"}, nil, io.Discard, &help); code != cli.ExitOK {
		t.Fatalf("modelgen generate -h: exit %d\n%s", code, help.String())
	}
	ref, err := ConfigReference(filepath.Join("..", "..", ".."), help.String())
	if err != nil {
		t.Fatal(err)
	}
	for _, setting := range []string{"`crdDir`", "`webhookCertificate`", "`policyDir`", "`docsDir`", "`roleViews`", "`roleName`", "`agree`", "-check", "-only string"} {
		if !strings.Contains(ref, setting) {
			t.Errorf("the reference does not name %s:\n%s", setting, ref)
		}
	}
	checkBlock(t, configPage, ConfigBegin, ConfigEnd, ref)
}

// checkBlock compares the block of page between the markers with want, or
// rewrites it under -update.
func checkBlock(t *testing.T, page, begin, end, want string) {
	t.Helper()
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	if testkit.Update() {
		doc, err := ReplaceBlock(string(data), begin, end, want)
		if err != nil {
			t.Fatalf("%s: %v", page, err)
		}
		if doc != string(data) {
			if err := os.WriteFile(page, []byte(doc), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return
	}
	got, err := Block(string(data), begin, end)
	if err != nil {
		t.Fatalf("%s: %v", page, err)
	}
	if got != want {
		t.Errorf("%s: the generated section differs from the code; run ./hack/update.sh", page)
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
