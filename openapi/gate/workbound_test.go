package gate

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// anyOfDoc is one request body: an anyOf of n object branches.
func anyOfDoc(n int, version string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "openapi: 3.0.3\ninfo: {title: t, version: %s}\npaths:\n  /x:\n    post:\n      requestBody:\n        content:\n          application/json:\n            schema:\n              anyOf:\n", version)
	for i := range n {
		fmt.Fprintf(&b, "              - {type: object, properties: {k%d: {type: string, maxLength: %d}}}\n", i, i+1)
	}
	b.WriteString("      responses:\n        '200': {description: ok}\n")
	return b.String()
}

// wideDoc is paths operations sharing one component of props properties.
func wideDoc(paths, props int, version string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "openapi: 3.0.3\ninfo: {title: t, version: %s}\npaths:\n", version)
	for i := range paths {
		fmt.Fprintf(&b, "  /p%d:\n    post:\n      requestBody:\n        content:\n          application/json:\n            schema: {$ref: '#/components/schemas/Big'}\n      responses:\n        '200': {description: ok}\n", i)
	}
	b.WriteString("components:\n  schemas:\n    Big:\n      type: object\n      properties:\n")
	for i := range props {
		fmt.Fprintf(&b, "        p%d: {type: string}\n", i)
	}
	return b.String()
}

// TestLimitWork: documents small in bytes but quadratic for oasdiff (an
// anyOf of 1000 branches, 93 KB, took 78 to 117 s; 3000 paths sharing 3000
// properties, 1 MB, took 188 s) are refused within seconds, naming the
// flag; the flag raises the bound.
func TestLimitWork(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("any-base.yaml", anyOfDoc(1000, "1.0.0"))
	write("any-rev.yaml", anyOfDoc(1000, "1.0.1"))
	write("wide-base.yaml", wideDoc(3000, 3000, "1.0.0"))
	write("wide-rev.yaml", wideDoc(3000, 3000, "1.0.1"))
	write("small-base.yaml", anyOfDoc(20, "1.0.0"))
	write("small-rev.yaml", anyOfDoc(20, "1.0.1"))
	for _, c := range []struct {
		base, rev string
		args      []string
		code      int
	}{
		{"any-base.yaml", "any-rev.yaml", nil, ExitError},
		{"wide-base.yaml", "wide-rev.yaml", nil, ExitError},
		{"small-base.yaml", "small-rev.yaml", []string{"--max-schema-pairs", "1000"}, ExitError},
		{"small-base.yaml", "small-rev.yaml", []string{"--max-schema-pairs", "100000"}, ExitPass},
		{"small-base.yaml", "small-rev.yaml", nil, ExitPass},
	} {
		start := time.Now()
		var out, errOut bytes.Buffer
		code := Command(append([]string{"-C", dir, "--base", c.base, "--revision", c.rev}, c.args...), &out, &errOut)
		took := time.Since(start)
		if code != c.code || (code == ExitError && !strings.Contains(errOut.String(), "--max-schema-pairs")) {
			t.Errorf("%s %v: exit %d, want %d\n%s%s", c.base, c.args, code, c.code, out.String(), errOut.String())
		}
		if took > 10*time.Second {
			t.Errorf("%s %v: took %v", c.base, c.args, took)
		}
		t.Logf("%s %v: exit %d in %v", c.base, c.args, code, took)
	}
}
