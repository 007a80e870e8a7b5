package docgen

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/modelgen/modelgen/gen/all"
)

// The markers around docs/configuration.md's generated reference.
const (
	ConfigBegin = "<!-- BEGIN CONFIGURATION REFERENCE -->"
	ConfigEnd   = "<!-- END CONFIGURATION REFERENCE -->"
)

// ConfigReference renders the settings of modelgen.yaml (gen/all's keys:
// gen.Config's own fields, then each backend's settings type; name, type,
// default, the package that owns it, and its doc comment, read from the
// owner's package source below root, the repository) and the flags of
// modelgen generate, as its -h prints them (help).
func ConfigReference(root, help string) (string, error) {
	keys, err := all.Keys()
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("`modelgen.yaml` settings (each owned by the package that reads it: `gen.Config` holds those several\nbackends read, a backend's own are its `Settings`; paths are relative to the package directory or to\nthe module root, as each says, and an empty path is the default):\n\n")
	b.WriteString("| setting | type | default | owner | what |\n|---|---|---|---|---|\n")
	docs := map[reflect.Type]map[string]string{}
	for _, k := range keys {
		if docs[k.Owner] == nil {
			rel, ok := strings.CutPrefix(k.Owner.PkgPath(), module+"/")
			if !ok {
				return "", fmt.Errorf("settings %s: not a package of %s", k.Owner, module)
			}
			d, err := typeDocs(filepath.Join(root, filepath.FromSlash(rel)), k.Owner.Name())
			if err != nil {
				return "", err
			}
			docs[k.Owner] = d
		}
		f := k.Field()
		doc, ok := docs[k.Owner][f.Name]
		if !ok {
			return "", fmt.Errorf("%s.%s has no doc comment", k.Owner, f.Name)
		}
		owner, _ := strings.CutPrefix(k.Owner.PkgPath(), module+"/")
		fmt.Fprintf(&b, "| `%s` | %s | %s | `%s` | %s |\n", k.Name, f.Type.Kind(), defaultCell(reflect.ValueOf(k.Default)), owner+"."+k.Owner.Name(), cell(doc))
	}
	b.WriteString("\n`modelgen generate -h`:\n\n```text\n")
	b.WriteString(strings.TrimRight(help, "\n"))
	b.WriteString("\n```\n")
	return b.String(), nil
}

// module is the repository's module path.
const module = "github.com/modelgen/modelgen"

func defaultCell(v reflect.Value) string {
	if v.Kind() == reflect.String && v.IsZero() {
		return "—"
	}
	return fmt.Sprintf("`%v`", v.Interface())
}

// typeDocs maps each field of the struct type name, declared in the
// package in dir, to its doc comment.
func typeDocs(dir, name string) (map[string]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.ParseComments)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	out := map[string]string{}
	inspect := func(n ast.Node) bool {
		ts, ok := n.(*ast.TypeSpec)
		if !ok || ts.Name.Name != name {
			return true
		}
		st, ok := ts.Type.(*ast.StructType)
		if !ok {
			return false
		}
		// A field without a comment of its own shares the one above it
		// ("PolicyExemptGroups and PolicyExemptUsers are ...").
		last := ""
		for _, fld := range st.Fields.List {
			if fld.Doc != nil {
				last = strings.TrimSpace(fld.Doc.Text())
			}
			for _, id := range fld.Names {
				if last != "" {
					out[id.Name] = last
				}
			}
		}
		return false
	}
	for _, f := range files {
		ast.Inspect(f, inspect)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no documented fields of type %s", dir, name)
	}
	return out, nil
}

// ReplaceBlock returns doc with the text between begin and end replaced by
// section. It fails when the markers are missing, repeated or out of order.
func ReplaceBlock(doc, begin, end, section string) (string, error) {
	b, e, err := blockMarkers(doc, begin, end)
	if err != nil {
		return "", err
	}
	return doc[:b] + begin + "\n" + section + end + doc[e+len(end):], nil
}

// Block returns the text between begin and end.
func Block(doc, begin, end string) (string, error) {
	b, e, err := blockMarkers(doc, begin, end)
	if err != nil {
		return "", err
	}
	return strings.TrimPrefix(doc[b+len(begin):e], "\n"), nil
}

func blockMarkers(doc, beginMarker, endMarker string) (begin, end int, err error) {
	begin, end = strings.Index(doc, beginMarker), strings.Index(doc, endMarker)
	switch {
	case begin < 0 || end < 0:
		return 0, 0, fmt.Errorf("markers %s and %s not found", beginMarker, endMarker)
	case strings.Count(doc, beginMarker) > 1 || strings.Count(doc, endMarker) > 1:
		return 0, 0, fmt.Errorf("markers %s and %s appear more than once", beginMarker, endMarker)
	case end < begin:
		return 0, 0, fmt.Errorf("%s comes before %s", endMarker, beginMarker)
	}
	return begin, end, nil
}
