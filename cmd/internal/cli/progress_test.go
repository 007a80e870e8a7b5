package cli

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestProgressAfterDelay: nothing is printed before the delay; then the
// phase in progress is named, and every phase that starts after it; done
// stops the lines.
func TestProgressAfterDelay(t *testing.T) {
	var buf syncBuffer
	p := newProgress(&buf, 50*time.Millisecond)
	p.phase("loading packages")
	if got := buf.String(); got != "" {
		t.Fatalf("printed before the delay: %q", got)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(buf.String(), "loading packages") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	p.phase("generating")
	p.done()
	p.phase("writing")
	got := buf.String()
	lines := strings.Split(strings.TrimSpace(got), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "modelgen: loading packages (") || !strings.HasPrefix(lines[1], "modelgen: generating (") {
		t.Errorf("want a line for each of the two phases, got %q", got)
	}
}

// TestProgressQuietAndInProcess: -q, and a writer that is not the
// process's stderr, get no progress at all.
func TestProgressQuietAndInProcess(t *testing.T) {
	if startProgress(&bytes.Buffer{}, false) != nil {
		t.Error("progress for an in-process writer")
	}
	if startProgress(nil, true) != nil {
		t.Error("progress with -q")
	}
}

type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
