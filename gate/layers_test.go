package gate

import (
	"os/exec"
	"strings"
	"testing"
)

// TestTestsImportNoUpperLayer: the gate's tests, like the gate, stand below
// the backends and the CLI: they build documents through model, schema and
// openapi, and never import gen/... or cmd/internal/cli (a test that does
// would judge the gate by code above it).
func TestTestsImportNoUpperLayer(t *testing.T) {
	const mod = "github.com/modelgen/modelgen/"
	out, err := exec.Command("go", "list", "-deps", "-test", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	seen := 0
	for _, pkg := range strings.Fields(string(out)) {
		if !strings.HasPrefix(pkg, mod) {
			continue
		}
		seen++
		for _, upper := range []string{"gen", "cmd/internal/cli", "cmd"} {
			if rest, ok := strings.CutPrefix(pkg, mod+upper); ok && (rest == "" || rest[0] == '/') {
				t.Errorf("the gate's tests import %s, a layer above the gate", pkg)
			}
		}
	}
	if seen < 3 {
		t.Fatalf("go list saw %d of modelgen's packages: the test no longer looks at the gate's imports", seen)
	}
}
