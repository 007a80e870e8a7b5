// Package devprof profiles a whole modelgen process for its developers,
// whichever command it runs (the drop-in's command line has no flags of
// modelgen's own): MODELGEN_CPUPROFILE=file writes a CPU profile of the
// process, MODELGEN_PEAKHEAPPROFILE=file a heap profile taken when the
// heap in use was at its highest (sampled every 20 ms), which shows what
// the peak RSS holds, where a profile at the end shows what is left.
package devprof

import (
	"bytes"
	"os"
	"runtime"
	"runtime/pprof"
	"sync"
	"time"
)

// Start starts the profiles the environment asks for and returns the
// function that stops them and writes them.
func Start() func() {
	var stops []func()
	if path := os.Getenv("MODELGEN_CPUPROFILE"); path != "" {
		if f, err := os.Create(path); err == nil {
			if pprof.StartCPUProfile(f) == nil {
				stops = append(stops, func() { pprof.StopCPUProfile(); f.Close() })
			} else {
				f.Close()
			}
		}
	}
	if path := os.Getenv("MODELGEN_PEAKHEAPPROFILE"); path != "" {
		stops = append(stops, peakHeap(path))
	}
	return func() {
		for _, stop := range stops {
			stop()
		}
	}
}

// peakHeap samples the heap in use and, each time it passes its highest
// by a tenth, keeps a heap profile of that moment; the last one kept is
// written at the end.
func peakHeap(path string) func() {
	runtime.MemProfileRate = 64 << 10
	var (
		mu   sync.Mutex
		best []byte
		peak uint64
		done = make(chan struct{})
		wg   sync.WaitGroup
	)
	sample := func() {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		if ms.HeapInuse <= peak+peak/10 {
			return
		}
		peak = ms.HeapInuse
		var buf bytes.Buffer
		// debug=0: the protobuf pprof reads; the profile as of the last GC
		if pprof.Lookup("heap").WriteTo(&buf, 0) == nil {
			mu.Lock()
			best = buf.Bytes()
			mu.Unlock()
		}
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				sample()
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait()
		mu.Lock()
		defer mu.Unlock()
		if best != nil {
			_ = os.WriteFile(path, best, 0o644)
		}
	}
}
