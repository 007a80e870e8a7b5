package testkit

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Cited is the figures a document cites: the integers that pattern's
// groups capture in the file at path (thousands separators dropped). The
// pattern must match once, so that a test asserting a figure the docs
// cite fails when the sentence changes, rather than checking nothing.
func Cited(t testing.TB, path, pattern string) []int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(pattern)
	matches := re.FindAllStringSubmatch(string(data), -1)
	if len(matches) != 1 {
		t.Fatalf("%s: %d matches of %q, want one: the sentence whose figures the test asserts changed", path, len(matches), pattern)
	}
	var out []int
	for _, g := range matches[0][1:] {
		n, err := strconv.Atoi(strings.ReplaceAll(g, ",", ""))
		if err != nil {
			t.Fatalf("%s: %q is not a figure: %v", path, g, err)
		}
		out = append(out, n)
	}
	return out
}
