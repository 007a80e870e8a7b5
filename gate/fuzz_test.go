package gate

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// FuzzGate feeds two arbitrary documents through everything the gate does
// with its inputs (the scan, kin-openapi's loader and validation, the
// extension decoding, the structural comparison, oasdiff, the verdict): it
// must never panic, and each run must end quickly, within the limits. The
// seeds are the compatibility documents plus the corpus in
// testdata/fuzz/FuzzGate (alias bombs, reference cycles, renames, external
// references, other OpenAPI versions).
//
//	go test ./gate -run '^$' -fuzz FuzzGate -fuzztime 60s
func FuzzGate(f *testing.F) {
	docs, _ := filepath.Glob(filepath.Join("testdata", "compat", "*.yaml"))
	base, err := os.ReadFile(filepath.Join("testdata", "compat", "base.yaml"))
	if err != nil {
		f.Fatal(err)
	}
	for _, doc := range docs {
		data, err := os.ReadFile(doc)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(base, data)
	}
	// Small limits keep each run short; what they refuse is checked for
	// being an input error like any other.
	lim := Limits{MaxBytes: 1 << 20, MaxAliases: 100, MaxAliasNodes: 10_000, MaxDepth: 50}
	f.Fuzz(func(t *testing.T, baseDoc, revisionDoc []byte) {
		start := time.Now()
		b, errB := parseSide(t.Context(), location{given: "base"}, baseDoc, lim)
		r, errR := parseSide(t.Context(), location{given: "revision"}, revisionDoc, lim)
		if errB == nil && errR == nil {
			changes, err := compare(b, r, false)
			if err == nil {
				judge(b.version, r.version, changes, false)
			}
		}
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("took %v", took)
		}
	})
}
