package agree

import "testing"

// maxReported bounds the divergences a failing Check prints.
const maxReported = 40

// Check runs the harness in a test: it fails the test on every unlisted
// divergence and logs the summary.
func Check(t testing.TB, cfg Config) *Report {
	t.Helper()
	h, err := New(cfg)
	if err != nil {
		t.Fatalf("agree: %v", err)
	}
	r := h.Run()
	t.Log(r.Summary())
	for i, d := range r.Unlisted() {
		if i == maxReported {
			t.Errorf("... and %d more unlisted divergences", len(r.Unlisted())-maxReported)
			break
		}
		t.Errorf("unlisted divergence: %s", d.String())
	}
	return r
}
