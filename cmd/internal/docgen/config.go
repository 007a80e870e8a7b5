package docgen

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"strings"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/model"
)

// The markers around docs/configuration.md's generated reference.
const (
	ConfigBegin = "<!-- BEGIN CONFIGURATION REFERENCE -->"
	ConfigEnd   = "<!-- END CONFIGURATION REFERENCE -->"
)

// ConfigReference renders the settings of modelgen.yaml (the fields of
// gen.Config: name, type, default, doc comment read from genSource, the
// source of package gen's Config) and the flags of modelgen generate, as
// its -h prints them (help).
func ConfigReference(genSource []byte, help string) (string, error) {
	docs, err := configDocs(genSource)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString("`modelgen.yaml` settings (the fields of `gen.Config`; paths are relative to the package\ndirectory or to the module root, as each says):\n\n")
	b.WriteString("| setting | type | default | what |\n|---|---|---|---|\n")
	def := reflect.ValueOf(gen.DefaultConfig(&model.Package{}))
	t := def.Type()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		doc, ok := docs[t.Field(i).Name]
		if !ok {
			return "", fmt.Errorf("gen.Config.%s has no doc comment", t.Field(i).Name)
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", name, t.Field(i).Type.Kind(), defaultCell(def.Field(i)), cell(doc))
	}
	b.WriteString("\n`modelgen generate -h`:\n\n```text\n")
	b.WriteString(strings.TrimRight(help, "\n"))
	b.WriteString("\n```\n")
	return b.String(), nil
}

func defaultCell(v reflect.Value) string {
	if v.Kind() == reflect.String && v.IsZero() {
		return "—"
	}
	return fmt.Sprintf("`%v`", v.Interface())
}

// configDocs maps each field of type Config in src to its doc comment.
func configDocs(src []byte) (map[string]string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), "gen.go", src, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	ast.Inspect(f, func(n ast.Node) bool {
		ts, ok := n.(*ast.TypeSpec)
		if !ok || ts.Name.Name != "Config" {
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
	})
	if len(out) == 0 {
		return nil, fmt.Errorf("no documented fields of type Config")
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
