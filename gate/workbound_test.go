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

// BenchmarkWorkBound measures how long the gate takes to refuse the two
// documents that once took minutes (an anyOf of 1000 branches; 3000 paths
// sharing 3000 properties), and to compare a small anyOf it lets through:
//
//	go test ./gate -run '^$' -bench WorkBound -benchtime 3x
func BenchmarkWorkBound(b *testing.B) {
	dir := b.TempDir()
	for name, doc := range map[string]string{
		"anyOf1000": anyOfDoc(1000, "1.0.0"), "wide3000x3000": wideDoc(3000, 3000, "1.0.0"), "anyOf20": anyOfDoc(20, "1.0.0"),
	} {
		if err := os.WriteFile(filepath.Join(dir, name+".yaml"), []byte(doc), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for _, c := range []struct {
		name string
		want int
	}{{"anyOf1000", ExitError}, {"wide3000x3000", ExitError}, {"anyOf20", ExitPass}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				var out, errOut bytes.Buffer
				if code := Command([]string{"-C", dir, "--base", c.name + ".yaml", "--revision", c.name + ".yaml"}, &out, &errOut); code != c.want {
					b.Fatalf("exit %d: %s", code, errOut.String())
				}
			}
		})
	}
}

// BenchmarkCRDCompare measures the CRD gate on a CRD of many fields, and
// its refusal of a comparison beyond --max-schema-pairs.
func BenchmarkCRDCompare(b *testing.B) {
	var yml strings.Builder
	yml.WriteString("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: widgets.x.io}\nspec:\n  group: x.io\n  names: {kind: Widget, plural: widgets}\n  scope: Namespaced\n  versions:\n  - name: v1\n    served: true\n    storage: true\n    schema:\n      openAPIV3Schema:\n        type: object\n        properties:\n          spec:\n            type: object\n            properties:\n")
	for i := range 20_000 {
		fmt.Fprintf(&yml, "              f%d: {type: string, maxLength: %d}\n", i, i+1)
	}
	crds, err := parseCRDFile("big.yaml", []byte(yml.String()), DefaultLimits(), &aliasBudget{side: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("compare20000fields", func(b *testing.B) {
		for b.Loop() {
			if _, err := compareCRDSides(crds, crds, true, DefaultLimits()); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("refuse", func(b *testing.B) {
		lim := DefaultLimits()
		lim.MaxSchemaPairs = 1000
		for b.Loop() {
			if _, err := compareCRDSides(crds, crds, true, lim); err == nil {
				b.Fatal("not refused")
			}
		}
	})
}
