package cli

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// progressAfter is how long a run stays silent before it names its phases.
var progressAfter = 2 * time.Second

// progress names the phases of a long run on stderr (a cold first run
// spends minutes in go list and the type-check): silent for the first
// progressAfter, then a line for the phase in progress and one for each
// phase that starts after it. It writes only to the process's own stderr
// (an *os.File), so an in-process caller with its own writer, such as a
// test comparing stderr, never sees it; -q turns it off.
type progress struct {
	w     io.Writer
	after time.Duration
	start time.Time

	mu      sync.Mutex
	current string
	shown   bool // current has been printed
	late    bool // progressAfter has passed
	timer   *time.Timer
}

func startProgress(stderr io.Writer, quiet bool) *progress {
	if _, isFile := stderr.(*os.File); quiet || !isFile {
		return nil
	}
	return newProgress(stderr, progressAfter)
}

func newProgress(w io.Writer, after time.Duration) *progress {
	p := &progress{w: w, after: after, start: time.Now()}
	p.timer = time.AfterFunc(after, func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.timer == nil {
			return // done
		}
		p.late = true
		p.show()
	})
	return p
}

// phase says a phase starts.
func (p *progress) phase(name string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.current, p.shown = name, false
	if p.late {
		p.show()
	}
}

func (p *progress) show() {
	if p.current == "" || p.shown {
		return
	}
	p.shown = true
	fmt.Fprintf(p.w, "modelgen: %s (%.1fs)\n", p.current, time.Since(p.start).Seconds())
}

// done ends the progress lines before the run prints its results.
func (p *progress) done() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.timer != nil {
		p.timer.Stop()
		p.timer = nil
	}
	p.late = false
}
