package gate

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// FuzzCRDGate feeds two arbitrary CRD files through what the CRD gate does
// with its inputs (the YAML scan, strict decoding, the structural check, the
// pairing and every rule): it must never panic, and each run must end
// quickly. The seeds are the case folders of testdata/crd.
//
//	go test ./gate -run '^$' -fuzz FuzzCRDGate -fuzztime 60s
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
	// multi-document sides: several CRDs (and the same one twice) in one
	// input, sharing one alias budget
	for i := 0; i+1 < len(dirs); i += 7 {
		var base, rev []byte
		for _, dir := range dirs[i:min(i+3, len(dirs))] {
			b, _ := os.ReadFile(filepath.Join(dir, "base.yaml"))
			r, _ := os.ReadFile(filepath.Join(dir, "revision.yaml"))
			base = append(append(base, b...), "\n---\n"...)
			rev = append(append(rev, r...), "\n---\n"...)
		}
		f.Add(base, append(rev, "a: &a [x, x]\nb: [*a, *a, *a]\n"...), true)
	}
	lim := Limits{MaxBytes: 1 << 20, MaxAliases: 100, MaxAliasNodes: 10_000, MaxDepth: 50, MaxSchemaPairs: 100_000}
	f.Fuzz(func(t *testing.T, baseDoc, revDoc []byte, ratchets bool) {
		start := time.Now()
		base, errB := parseCRDFile("base.yaml", baseDoc, lim, &aliasBudget{side: true})
		rev, errR := parseCRDFile("revision.yaml", revDoc, lim, &aliasBudget{side: true})
		if errB == nil && errR == nil && checkDuplicates(base) == nil && checkDuplicates(rev) == nil {
			changes, err := compareCRDSides(base, rev, ratchets, lim)
			if err == nil && checkBaseDefinitions(t.Context(), base) == nil {
				changes = append(changes, refusals(t.Context(), base, rev)...)
				changes = append(changes, celUnavailable(base, rev, kubeVersionOf("1.29"))...)
			}
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

// TestCRDMutations runs FuzzCRDGate's property over line-level mutations of
// the case folders (lines dropped, repeated, swapped between base and
// revision, values changed): a fixed-seed stand-in for the fuzzer where it
// cannot run. MODELGEN_CRD_MUTATIONS sets the count (default 300).
func TestCRDMutations(t *testing.T) {
	n := 300
	if v, err := strconv.Atoi(os.Getenv("MODELGEN_CRD_MUTATIONS")); err == nil {
		n = v
	}
	dirs, _ := filepath.Glob(filepath.Join("testdata", "crd", "*"))
	var files [][]string
	for _, dir := range dirs {
		for _, side := range []string{"base.yaml", "revision.yaml"} {
			data, err := os.ReadFile(filepath.Join(dir, side))
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, strings.Split(string(data), "\n"))
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	lim := Limits{MaxBytes: 1 << 20, MaxAliases: 100, MaxAliasNodes: 10_000, MaxDepth: 50, MaxSchemaPairs: 100_000}
	values := []string{"true", "false", "0", "-1", "1e300", "null", "[]", "{}", "\"\"", "*a", "&a x", "type: array", "x-kubernetes-list-type: map", "x-kubernetes-preserve-unknown-fields: true", "- rule: self == oldSelf"}
	accepted := 0
	for i := range n {
		pair := [2][]string{slices.Clone(files[rng.IntN(len(files))]), slices.Clone(files[rng.IntN(len(files))])}
		for k := range 1 + rng.IntN(4) {
			lines := pair[k%2]
			if len(lines) < 2 {
				continue
			}
			j := rng.IntN(len(lines))
			switch rng.IntN(4) {
			case 0:
				lines = slices.Delete(lines, j, j+1)
			case 1:
				lines = slices.Insert(lines, j, lines[rng.IntN(len(lines))])
			case 2:
				indent := len(lines[j]) - len(strings.TrimLeft(lines[j], " "))
				if key, _, ok := strings.Cut(strings.TrimSpace(lines[j]), ":"); ok {
					lines[j] = strings.Repeat(" ", indent) + key + ": " + values[rng.IntN(len(values))]
				}
			case 3:
				lines[j] = strings.Repeat(" ", rng.IntN(20)) + strings.TrimLeft(lines[j], " ")
			}
			pair[k%2] = lines
		}
		start := time.Now()
		base, errB := parseCRDFile("base.yaml", []byte(strings.Join(pair[0], "\n")), lim, &aliasBudget{side: true})
		rev, errR := parseCRDFile("revision.yaml", []byte(strings.Join(pair[1], "\n")), lim, &aliasBudget{side: true})
		if errB == nil && errR == nil && len(base) > 0 && len(rev) > 0 {
			changes, err := compareCRDSides(base, rev, i%2 == 0, lim)
			if err == nil && checkBaseDefinitions(t.Context(), base) == nil {
				changes = append(changes, refusals(t.Context(), base, rev)...)
				changes = append(changes, celUnavailable(base, rev, kubeVersionOf("1.29"))...)
			}
			if err == nil {
				accepted++
				for _, c := range changes {
					if crdRuleByID[c.ID].ID == "" || c.Message == "" || strings.Contains(c.Message, "%!") {
						t.Errorf("mutation %d: a malformed change %+v", i, c)
					}
				}
			}
		}
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("mutation %d took %v", i, took)
		}
	}
	t.Logf("%d mutations, %d compared", n, accepted)
}
