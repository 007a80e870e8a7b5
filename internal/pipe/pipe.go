// Package pipe runs the pure stage of a backend beside its serial one: a
// backend whose first stage must run in one goroutine (it asks
// controller-tools' parser, which is not safe for concurrent use) hands
// each item it makes to Ordered, whose workers run the second stage (the
// API server's validation, rendering) while the first goes on, and gets
// the results back in the order it made the items, so the output is the
// same bytes as a serial run's.
package pipe

import (
	"runtime"
	"sync"
)

// Ordered calls produce, which calls send for each item it makes, and runs
// work on the items in up to Workers() goroutines as they are sent. It
// returns work's results in the order the items were sent. Send blocks
// until a worker takes the item, so at most one item per worker, one being
// sent and the one produce is making are held at any time (each a CRD's
// or a document's objects), not all of them.
//
// A panic in work is raised again in the caller's goroutine once the
// workers stop, so that the caller's recover sees it as a panic of its
// own; a panic in produce stops the workers and goes on up.
func Ordered[In, Out any](produce func(send func(In)), work func(In) Out) []Out {
	return ordered(Workers(), produce, work)
}

// Each runs work on every item of ins in up to GOMAXPROCS goroutines and
// returns the results in the order of ins: for a stage with nothing serial
// before it (each item stands alone). A panic in work is raised again in
// the caller's goroutine, as Ordered's.
func Each[In, Out any](ins []In, work func(In) Out) []Out {
	return ordered(max(1, runtime.GOMAXPROCS(0)), func(send func(In)) {
		for _, in := range ins {
			send(in)
		}
	}, work)
}

func ordered[In, Out any](n int, produce func(send func(In)), work func(In) Out) []Out {
	type job struct {
		i  int
		in In
	}
	jobs := make(chan job)
	var (
		mu      sync.Mutex
		out     []Out
		failure any
		wg      sync.WaitGroup
	)
	put := func(i int, r Out) {
		mu.Lock()
		defer mu.Unlock()
		for len(out) <= i {
			var zero Out
			out = append(out, zero)
		}
		out[i] = r
	}
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				func() {
					defer func() {
						if r := recover(); r != nil {
							mu.Lock()
							if failure == nil {
								failure = r
							}
							mu.Unlock()
						}
					}()
					put(j.i, work(j.in))
				}()
			}
		}()
	}
	count := 0
	func() {
		defer func() {
			close(jobs)
			wg.Wait()
		}()
		produce(func(in In) {
			jobs <- job{count, in}
			count++
		})
	}()
	if failure != nil {
		panic(failure)
	}
	for len(out) < count { // items whose work panicked are raised above
		var zero Out
		out = append(out, zero)
	}
	return out[:count]
}

// Workers is how many goroutines run the second stage: one per processor
// Go may use (GOMAXPROCS) beside the first stage's, and at least one.
func Workers() int {
	return max(1, runtime.GOMAXPROCS(0)-1)
}
