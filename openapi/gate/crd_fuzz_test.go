package gate

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// FuzzCRDGate feeds two arbitrary CRD files through what the CRD gate does
// with its inputs (the YAML scan, strict decoding, the structural check, the
// pairing and every rule): it must never panic, and each run must end
// quickly. The seeds are the case folders of testdata/crd.
//
//	go test ./openapi/gate -run '^$' -fuzz FuzzCRDGate -fuzztime 60s
func FuzzCRDGate(f *testing.F) {
	dirs, _ := filepath.Glob(filepath.Join("testdata", "crd", "*"))
	for _, dir := range dirs {
		base, err1 := os.ReadFile(filepath.Join(dir, "base.yaml"))
		rev, err2 := os.ReadFile(filepath.Join(dir, "revision.yaml"))
		if err1 != nil || err2 != nil {
			f.Fatal(err1, err2)
		}
		f.Add(base, rev, false)
	}
	lim := Limits{MaxBytes: 1 << 20, MaxAliases: 100, MaxAliasNodes: 10_000, MaxDepth: 50, MaxSchemaPairs: 100_000}
	f.Fuzz(func(t *testing.T, baseDoc, revDoc []byte, ratchets bool) {
		start := time.Now()
		base, errB := parseCRDFile("base.yaml", baseDoc, lim)
		rev, errR := parseCRDFile("revision.yaml", revDoc, lim)
		if errB == nil && errR == nil && checkDuplicates(base) == nil && checkDuplicates(rev) == nil {
			changes, err := compareCRDSides(base, rev, ratchets, lim)
			if err == nil {
				for _, c := range changes {
					if c.ID == "" || c.Message == "" || crdRuleByID[c.ID].ID == "" {
						t.Errorf("a change without a rule: %+v", c)
					}
				}
				_ = crdVerdict(changes)
			}
		}
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("took %v", took)
		}
	})
}
