package crd

import (
	"runtime"
	"sync"
)

// checkWorkers is how many CRDs are checked at once: one per processor, at
// most two, so that a run holds at most three CRDs' objects (two checked,
// one being built) whatever the machine.
func checkWorkers() int {
	return min(2, runtime.GOMAXPROCS(0))
}

// workers runs functions on at most n goroutines at once. A panic in one
// is raised again by Wait, on the caller's goroutine, where the backend's
// recovery turns it into an error.
type workers struct {
	slots chan struct{}
	wg    sync.WaitGroup
	mu    sync.Mutex
	// panicked is the first panic's value
	panicked any
}

func newWorkers(n int) *workers {
	return &workers{slots: make(chan struct{}, n)}
}

// Go runs f on a worker, waiting for one to be free.
func (w *workers) Go(f func()) {
	w.slots <- struct{}{}
	w.wg.Add(1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				w.mu.Lock()
				if w.panicked == nil {
					w.panicked = r
				}
				w.mu.Unlock()
			}
			<-w.slots
			w.wg.Done()
		}()
		f()
	}()
}

// Wait waits for every function to return.
func (w *workers) Wait() {
	w.wg.Wait()
	if w.panicked != nil {
		panic(w.panicked)
	}
}
