package gate

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelgen/modelgen/internal/testkit"
)

// minimal is a valid OpenAPI 3.0 document whose one response schema is
// given.
func minimal(version, schema string) string {
	return `openapi: ` + version + `
info: {title: t, version: 1.2.0}
paths:
  /things:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema: ` + schema + "\n"
}

// refused runs the gate with the revision given and checks that it is an
// input error (exit 2 from the CLI) that says every want, says none of the
// avoid strings, and comes back within a second.
func refused(t *testing.T, opts Options, want []string, avoid ...string) {
	t.Helper()
	if opts.Base == "" {
		opts.Base = filepath.Join(opts.Dir, "base.yaml")
		testkit.WriteFile(t, opts.Base, minimal("3.0.3", "{type: object}"))
	}
	start := time.Now()
	_, err := Run(t.Context(), opts)
	took := time.Since(start)
	if !IsInputError(err) {
		t.Fatalf("err = %v, want an input error", err)
	}
	t.Logf("%v (%v)", err, took)
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error lacks %q:\n%v", w, err)
		}
	}
	for _, a := range avoid {
		if strings.Contains(err.Error(), a) {
			t.Errorf("error says %q:\n%v", a, err)
		}
	}
	if took > time.Second {
		t.Errorf("refused after %v, want within a second", took)
	}
}

// A billion-laughs document: ten levels of ten aliases each would expand to
// 10^10 nodes from a file of a few hundred bytes.
func aliasBomb(levels int) string {
	var b strings.Builder
	b.WriteString("openapi: 3.0.3\ninfo: {title: t, version: 1.2.0}\npaths: {}\nx-bomb:\n  l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	for i := 1; i <= levels; i++ {
		fmt.Fprintf(&b, "  l%d: &l%d [", i, i)
		for j := 0; j < 10; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*l%d", i-1)
		}
		b.WriteString("]\n")
	}
	return b.String()
}

func TestLimitAliasBomb(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteFile(t, filepath.Join(dir, "bomb.yaml"), aliasBomb(18))
	refused(t, Options{Dir: dir, Revision: "bomb.yaml"},
		[]string{"bomb.yaml: the document's YAML aliases would add at least 4.61e+18 nodes once expanded (limit 100000)", "refused before expanding them", "--max-yaml-alias-nodes"})

	// The count of aliases is a limit of its own.
	testkit.WriteFile(t, filepath.Join(dir, "many.yaml"), minimal("3.0.3", "{type: object}")+"x-a: &a 1\nx-list: ["+strings.Repeat("*a, ", 20)+"*a]\n")
	refused(t, Options{Dir: dir, Revision: "many.yaml", Limits: Limits{MaxAliases: 20}},
		[]string{"uses 21 YAML aliases, more than the limit of 20", "--max-yaml-aliases"})
	if _, err := Run(t.Context(), Options{Base: "many.yaml", Revision: "many.yaml", Dir: dir}); err != nil {
		t.Errorf("21 aliases under the default limit: %v", err)
	}

	// An anchor that holds an alias to itself has no finite expansion.
	testkit.WriteFile(t, filepath.Join(dir, "loop.yaml"), minimal("3.0.3", "{type: object}")+"x-loop: &loop [a, *loop]\n")
	refused(t, Options{Dir: dir, Revision: "loop.yaml"}, []string{"loop.yaml: ", "an anchor that contains it"})
}

func TestLimitSize(t *testing.T) {
	dir := t.TempDir()
	doc := minimal("3.0.3", "{type: object}")
	testkit.WriteFile(t, filepath.Join(dir, "doc.yaml"), doc)
	refused(t, Options{Dir: dir, Base: filepath.Join(dir, "doc.yaml"), Revision: "doc.yaml", Limits: Limits{MaxBytes: int64(len(doc) - 1)}},
		[]string{fmt.Sprintf("doc.yaml: the document is larger than the %dB limit (raise the limit with --max-size)", len(doc)-1)})
	if _, err := Run(t.Context(), Options{Base: "doc.yaml", Revision: "doc.yaml", Dir: dir, Limits: Limits{MaxBytes: int64(len(doc))}}); err != nil {
		t.Errorf("a document of exactly the limit: %v", err)
	}

	// The default: a 17 MiB file is refused without being parsed.
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, []byte(doc+"x-pad: '"+strings.Repeat("a", 17<<20)+"'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	refused(t, Options{Dir: dir, Revision: "big.yaml"}, []string{"big.yaml: the document is larger than the 16MiB limit"})
}

// External references are refused by name, whatever they point at, and the
// gate never reads what they point at: no content of the target appears.
func TestLimitExternalRefs(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(t.TempDir(), "secret.yaml")
	testkit.WriteFile(t, secret, "Thing: {type: object, description: TOP-SECRET-CONTENT}\n")
	testkit.WriteFile(t, filepath.Join(dir, "sub", "thing.yaml"), "Thing: {type: object, description: TOP-SECRET-CONTENT}\n")
	rel, err := filepath.Rel(filepath.Join(dir, "sub"), secret)
	if err != nil {
		t.Fatal(err)
	}
	for name, ref := range map[string]string{
		"absolute": secret + "#/Thing",
		"dotdot":   "sub/" + rel + "#/Thing",
		"relative": "sub/thing.yaml#/Thing",
		"file-url": "file://" + secret + "#/Thing",
		"device":   "/dev/zero#/x",
		"remote":   "http://127.0.0.1:9/thing.yaml#/Thing",
	} {
		t.Run(name, func(t *testing.T) {
			testkit.WriteFile(t, filepath.Join(dir, name+".yaml"), minimal("3.0.3", "{$ref: '"+ref+"'}"))
			refused(t, Options{Dir: dir, Revision: name + ".yaml"},
				[]string{name + ".yaml: line 11, column 30: $ref " + fmt.Sprintf("%q", ref) + " points outside the document", "local references (#/...)"},
				"TOP-SECRET-CONTENT")
		})
	}
}

func TestVersionsRefused(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteFile(t, filepath.Join(dir, "v31.yaml"), minimal("3.1.0", "{type: object}"))
	refused(t, Options{Dir: dir, Revision: "v31.yaml"}, []string{`v31.yaml: this is an OpenAPI "3.1.0" document; the gate judges OpenAPI 3.0 documents only`})
	testkit.WriteFile(t, filepath.Join(dir, "v2.yaml"), "swagger: '2.0'\ninfo: {title: t, version: 1.2.0}\npaths: {}\n")
	refused(t, Options{Dir: dir, Revision: "v2.yaml"}, []string{`v2.yaml: this is a Swagger/OpenAPI 2.0 document (swagger: "2.0")`, "convert it to 3.0"})
	testkit.WriteFile(t, filepath.Join(dir, "v4.yaml"), minimal("4.0.0", "{type: object}"))
	refused(t, Options{Dir: dir, Revision: "v4.yaml"}, []string{`openapi: "4.0.0" is not a version the gate judges`})
	// a repeated key: the scan reads the first, a JSON decoder keeps the last
	testkit.WriteFile(t, filepath.Join(dir, "dup.json"), `{"openapi":"3.0.3","info":{"title":"t","version":"1.2.0"},"paths":{},"openapi":"3.1.0"}`)
	refused(t, Options{Dir: dir, Revision: "dup.json"}, []string{`dup.json: openapi "3.1.0": the gate judges OpenAPI 3.0 documents only`})
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"1": 1, "32MiB": 32 << 20, "64 MiB": 64 << 20, "2GiB": 2 << 30, "512KiB": 512 << 10, "10B": 10} {
		if got, err := parseSize(in); err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
		if got, _ := parseSize(formatSize(want)); got != want {
			t.Errorf("formatSize(%d) = %q does not read back", want, formatSize(want))
		}
	}
	for _, in := range []string{"", "0", "-1", "1TB", "MiB", "99999999999999GiB"} {
		if _, err := parseSize(in); err == nil {
			t.Errorf("parseSize(%q) accepted", in)
		}
	}
}

// The loader is a second line behind scanDocument: given a document with an
// external reference directly, it refuses to read it.
func TestLoaderReadsNothingElse(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "secret.yaml")
	testkit.WriteFile(t, secret, "Thing: {type: object, description: TOP-SECRET-CONTENT}\n")
	for _, ref := range []string{secret + "#/Thing", "file://" + secret + "#/Thing", "../secret.yaml#/Thing"} {
		_, err := newLoader(t.Context()).LoadFromData([]byte(minimal("3.0.3", "{$ref: '"+ref+"'}")))
		if err == nil || strings.Contains(err.Error(), "TOP-SECRET") {
			t.Errorf("$ref %s: err = %v, want a refusal that quotes nothing of the file", ref, err)
		}
	}
}

// Each limit is raised by its flag.
func TestLimitFlagsRaise(t *testing.T) {
	dir := t.TempDir()
	doc := minimal("3.0.3", "{type: object}")
	testkit.WriteFile(t, filepath.Join(dir, "base.yaml"), doc)
	aliases := doc + "x-a: &a [1, 2, 3]\nx-list: [" + strings.Repeat("*a, ", 1000) + "*a]\n"
	testkit.WriteFile(t, filepath.Join(dir, "aliases.yaml"), aliases)
	run := func(args ...string) (int, string) {
		var out, errOut bytes.Buffer
		code := Command(append([]string{"-C", dir, "--base", "base.yaml", "--revision", "aliases.yaml"}, args...), &out, &errOut)
		return code, errOut.String()
	}
	if code, msg := run(); code != ExitError || !strings.Contains(msg, "uses 1001 YAML aliases, more than the limit of 1000 (raise the limit with --max-yaml-aliases)") {
		t.Errorf("default: exit %d: %s", code, msg)
	}
	if code, msg := run("--max-yaml-aliases", "1001", "--max-size", "1KiB"); code != ExitError || !strings.Contains(msg, "larger than the 1KiB limit") {
		t.Errorf("--max-size 1KiB: exit %d: %s", code, msg)
	}
	if code, msg := run("--max-yaml-aliases", "1001", "--max-yaml-alias-nodes", "4000"); code != ExitError || !strings.Contains(msg, "would add at least 4e+03 nodes once expanded (limit 4000)") {
		t.Errorf("--max-yaml-alias-nodes 4000: exit %d: %s", code, msg)
	}
	if code, msg := run("--max-yaml-aliases", "1001"); code != ExitPass {
		t.Errorf("--max-yaml-aliases 1001: exit %d: %s", code, msg)
	}
}

// deepDoc nests array schemas depth levels deep, in count separate chains.
func deepDoc(depth, count int) string {
	var b strings.Builder
	b.WriteString("openapi: 3.0.3\ninfo: {title: t, version: 1.2.0}\npaths:\n")
	for i := range count {
		fmt.Fprintf(&b, "  /x%d:\n    get:\n      responses:\n        '200':\n          description: ok\n          content:\n            application/json:\n              schema: ", i)
		b.WriteString(strings.Repeat("{type: array, items: ", depth-1) + "{type: string}" + strings.Repeat("}", depth-1) + "\n")
	}
	return b.String()
}

// oasdiff's work grows with the square of the nesting depth (4 chains 9000
// deep, 800 KB, took it 2.8 s of CPU): the depth is limited, through $refs
// too, and the generated contracts are far below the limit.
func TestLimitSchemaDepth(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteFile(t, filepath.Join(dir, "deep.yaml"), deepDoc(2000, 2))
	// Refused on the YAML tree, before kin-openapi or oasdiff see it.
	refused(t, Options{Dir: dir, Revision: "deep.yaml"}, []string{"deep.yaml: the document nests 2010 levels deep; schemas nested at most 100 deep allow 240 (raise the limit with --max-schema-depth)"})
	// Schemas nested through properties at the limit take two YAML levels
	// each, and pass.
	props := strings.Repeat("{type: object, properties: {p: ", 99) + "{type: string}" + strings.Repeat("}}", 99)
	testkit.WriteFile(t, filepath.Join(dir, "props.yaml"), minimal("3.0.3", props))
	if _, err := Run(t.Context(), Options{Base: "props.yaml", Revision: "props.yaml", Dir: dir}); err != nil {
		t.Errorf("100 levels of properties: %v", err)
	}
	testkit.WriteFile(t, filepath.Join(dir, "d101.yaml"), deepDoc(101, 1))
	refused(t, Options{Dir: dir, Revision: "d101.yaml"}, []string{"schemas nest 101 levels deep"})
	if _, err := Run(t.Context(), Options{Base: "d101.yaml", Revision: "d101.yaml", Dir: dir, Limits: Limits{MaxDepth: 101}}); err != nil {
		t.Errorf("depth 101 under a limit of 101: %v", err)
	}

	// A chain of components through $ref counts the same.
	var chain strings.Builder
	chain.WriteString(minimal("3.0.3", "{$ref: '#/components/schemas/C0'}") + "components:\n  schemas:\n")
	for i := range 150 {
		fmt.Fprintf(&chain, "    C%d: {type: object, properties: {next: {$ref: '#/components/schemas/C%d'}}}\n", i, i+1)
	}
	chain.WriteString("    C150: {type: object, properties: {back: {$ref: '#/components/schemas/C0'}}}\n")
	testkit.WriteFile(t, filepath.Join(dir, "chain.yaml"), chain.String())
	refused(t, Options{Dir: dir, Revision: "chain.yaml"}, []string{"schemas nest 151 levels deep"})

	for _, example := range []string{"payments/api/v1alpha1", "sla/api/v1alpha1"} {
		data, err := os.ReadFile(filepath.Join("..", "examples", example, "openapi.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		s, err := parseSide(t.Context(), location{given: example}, data, DefaultLimits())
		if err != nil {
			t.Fatal(err)
		}
		if t.Logf("%s: depth %d", example, s.ext.depth); s.ext.depth > DefaultMaxDepth/4 {
			t.Errorf("%s: depth %d, too close to the default limit %d", example, s.ext.depth, DefaultMaxDepth)
		}
	}
}

// TestCRDAliasBudgetPerSide: the alias budget is spent by all the
// documents of a side together: 100 documents, each within the limits
// alone, are refused at once (exit 2, in seconds), not read one by one.
func TestCRDAliasBudgetPerSide(t *testing.T) {
	good, err := os.ReadFile(filepath.Join("testdata", "crd", "field-added", "base.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	// one document: 9 aliases of a 1,101-node anchor (about 10k nodes)
	doc := func(i int) string {
		return fmt.Sprintf("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c%d}\ndata:\n  a: &a [%s]\n  b: [%s]\n", i,
			strings.TrimSuffix(strings.Repeat("x, ", 1100), ", "), strings.TrimSuffix(strings.Repeat("*a, ", 9), ", "))
	}
	dir := t.TempDir()
	testkit.WriteFile(t, filepath.Join(dir, "good.yaml"), string(good))
	testkit.WriteFile(t, filepath.Join(dir, "one.yaml"), string(good)+"---\n"+doc(0))
	var many strings.Builder
	many.Write(good)
	for i := range 100 {
		many.WriteString("---\n" + doc(i))
	}
	testkit.WriteFile(t, filepath.Join(dir, "many.yaml"), many.String())
	// and across the files of a directory
	testkit.WriteFile(t, filepath.Join(dir, "split", "crd.yaml"), string(good))
	for i := range 100 {
		testkit.WriteFile(t, filepath.Join(dir, "split", fmt.Sprintf("c%03d.yaml", i)), doc(i))
	}
	if code, out, errOut := runCRD(t, "-C", dir, "--crd-base", "good.yaml", "--crd-revision", "one.yaml"); code != ExitPass {
		t.Fatalf("one document within the limits: exit %d\n%s%s", code, out, errOut)
	}
	for _, side := range []string{"many.yaml", "split"} {
		start := time.Now()
		code, _, errOut := runCRD(t, "-C", dir, "--crd-base", "good.yaml", "--crd-revision", side)
		if code != ExitError || !strings.Contains(errOut, "this side's documents") || !strings.Contains(errOut, "--max-yaml-alias-nodes") {
			t.Errorf("%s: exit %d, %s", side, code, errOut)
		}
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("%s: refused in %v", side, took)
		}
		if n := strings.Count(errOut, "YAML aliases"); n != 1 {
			t.Errorf("%s: %d alias errors, want the side refused once:\n%s", side, n, errOut)
		}
	}
}
