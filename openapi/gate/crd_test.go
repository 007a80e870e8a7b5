package gate

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oasdiff/oasdiff/checker"
)

var update = flag.Bool("update", false, "rewrite the CRD gate's goldens (testdata/crd/*/want.txt)")

// TestCRDRuleTable audits the CRD rule table: unique ids that collide with
// neither the OpenAPI gate's nor oasdiff's, a reason and a message format
// each, and ratcheting only on the tightening (warning) rules.
func TestCRDRuleTable(t *testing.T) {
	seen := map[string]bool{}
	oasdiffIDs := checker.GetAllRuleIds()
	for _, r := range CRDRules() {
		if seen[r.ID] || ruleByID[r.ID].ID != "" || slices.Contains(oasdiffIDs, r.ID) || !strings.HasPrefix(r.ID, "crd-") {
			t.Errorf("%s: duplicate or unprefixed id", r.ID)
		}
		seen[r.ID] = true
		if r.Reason == "" || r.Format == "" {
			t.Errorf("%s: missing reason or format", r.ID)
		}
		if r.Ratcheted && r.Level != LevelWarning {
			t.Errorf("%s: a ratcheted rule is a warning (tightened for new writes only)", r.ID)
		}
		if r.Level == LevelWarning && !r.Ratcheted && r.ID != CRDRuleOptionalOldSelfAdded {
			t.Errorf("%s: a warning that is not ratcheted must say why in the audit", r.ID)
		}
	}
	// every removed/tightened rule has an added/loosened twin (the storage
	// version is moved, never added)
	for _, r := range CRDRules() {
		if r.ID == CRDRuleStorageVersionRemoved {
			continue
		}
		for _, pair := range [][2]string{{"-removed", "-added"}, {"-tightened", "-loosened"}} {
			if stem, ok := strings.CutSuffix(r.ID, pair[0]); ok && !seen[stem+pair[1]] {
				t.Errorf("%s: no %s twin", r.ID, pair[1])
			}
		}
	}
}

// TestCRDCases runs the gate on every case folder of testdata/crd (a base
// and a revision CRD) and compares its text report with want.txt;
// go test ./openapi/gate -run TestCRDCases -update rewrites them.
func TestCRDCases(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join("testdata", "crd", "*"))
	if len(dirs) < 30 {
		t.Fatalf("found %d case folders", len(dirs))
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := Command([]string{"-C", dir, "--crd-base", "base.yaml", "--crd-revision", "revision.yaml"}, &out, &errOut)
			if code == ExitError {
				t.Fatalf("exit 2: %s", errOut.String())
			}
			got := out.String()
			want := filepath.Join(dir, "want.txt")
			if *update {
				if err := os.WriteFile(want, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			data, err := os.ReadFile(want)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(data) {
				t.Errorf("report differs from %s (rerun with -update and review):\n%s", want, got)
			}
			if (code == ExitViolation) != strings.Contains(got, "; FAIL") {
				t.Errorf("exit %d does not match the verdict", code)
			}
		})
	}
}
