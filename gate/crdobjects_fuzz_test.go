package gate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// FuzzCRDObjects feeds arbitrary bytes through the objects mode's reader
// (the YAML scan, the bounds, List items, kubectl's decoding) and judges
// what it reads under the case's CRDs (read, unchanged and label-only
// update, create): it must never panic, each object read must carry
// apiVersion and kind, each finding a rule, and each run end quickly. The
// seeds are the objects of testdata/crdobjects.
//
//	go test ./gate -run '^$' -fuzz FuzzCRDObjects -fuzztime 60s
func FuzzCRDObjects(f *testing.F) {
	dirs, _ := filepath.Glob(filepath.Join("testdata", "crdobjects", "*"))
	sides := map[int][2][]crdSource{}
	lim := Limits{MaxBytes: 1 << 20, MaxAliases: 100, MaxAliasNodes: 10_000, MaxDepth: 50, MaxSchemaPairs: 100_000}
	for i, dir := range dirs {
		var data []byte
		for _, name := range []string{"objects.yaml", "objects.json"} {
			if d, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
				data = d
			}
		}
		base, err1 := readCRDSide(f.Context(), filepath.Join(dir, "base.yaml"), "", lim)
		rev, err2 := readCRDSide(f.Context(), filepath.Join(dir, "revision.yaml"), "", lim)
		if err1 != nil || err2 != nil || data == nil {
			f.Fatal(dir, err1, err2)
		}
		sides[i] = [2][]crdSource{base, rev}
		f.Add(data, uint8(i), i%2 == 0)
	}
	f.Add([]byte("a: &a [x, x]\nb: [*a, *a, *a]\n"), uint8(0), true)
	f.Add([]byte(`{"apiVersion": "v1", "kind": "List", "items": [{"kind": "WidgetList", "items": []}]}`), uint8(1), false)
	f.Fuzz(func(t *testing.T, data []byte, pick uint8, ratchets bool) {
		start := time.Now()
		r := &objectReader{lim: lim, bytesLeft: lim.MaxBytes, budget: &aliasBudget{side: true}}
		if err := r.parse("objects.yaml", data); err != nil {
			return
		}
		for _, o := range r.objects {
			if api, _ := o.obj["apiVersion"].(string); api == "" {
				t.Errorf("%s: an object without apiVersion", o.at)
			}
		}
		side := sides[int(pick)%len(sides)]
		for _, fnd := range judgeObjects(side[0], side[1], r.objects, ratchets, false) {
			if objectRuleByID[fnd.Rule].ID == "" || fnd.Message == "" || strings.Contains(fnd.Message, "%!") {
				t.Errorf("a finding without a rule or message: %+v", fnd)
			}
		}
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("took %v", took)
		}
	})
}
