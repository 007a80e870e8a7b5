package gen

import (
	"cmp"
	"slices"
)

// Part is one root package's part of the files a backend generates from a
// whole module (ModuleOwner: the operator's role is made of every
// package's +kubebuilder:rbac markers), in the backend's own encoding.
type Part struct {
	Path string // the root package's import path
	Data []byte
}

// A Replayer is a backend whose module files are made of a part of each
// root package, so that an incremental run (gen/all) re-renders them from
// the loaded packages and the recorded parts of the others, writing the
// bytes a full run writes. Its Generate reads the replayed parts from
// Context.Replayed; a backend that writes module files and is no Replayer
// makes every change a full run.
type Replayer interface {
	Backend
	// Parts returns the part of every root package of the model
	// (Model.Loaded), by import path: what Generate would read of it, had
	// the package been replayed. ok is false when a part cannot be replayed
	// exactly (the run is then recorded whole).
	Parts(c *Context) (parts map[string][]byte, ok bool)
}

// Replay is what an incremental run hands the backends of the root
// packages it did not load.
type Replay struct {
	// Roots are every root package's import path, in go list's order:
	// the order a full run hands them to the backends.
	Roots []string
	// Parts are the replayed packages' parts, by backend name.
	Parts map[string][]Part
	// Outputs are the outputs the replayed packages declare (Declared).
	Outputs []Output
}

// Replayed are the parts of the root packages the run did not load, for
// the named backend, in go list's order (none in a full run).
func (c *Context) Replayed(backend string) []Part {
	if c.Replay == nil {
		return nil
	}
	return c.Replay.Parts[backend]
}

// RootOrder sorts items by their packages' places among the run's root
// packages (go list's order): a full run's order, with the replayed
// packages among the loaded ones. path is an item's import path; an
// unknown one goes last, in the order given.
func RootOrder[T any](c *Context, items []T, path func(T) string) []T {
	if c.Replay == nil {
		return items
	}
	at := map[string]int{}
	for i, p := range c.Replay.Roots {
		at[p] = i
	}
	place := func(t T) int {
		if i, ok := at[path(t)]; ok {
			return i
		}
		return len(at)
	}
	out := slices.Clone(items)
	slices.SortStableFunc(out, func(a, b T) int { return cmp.Compare(place(a), place(b)) })
	return out
}
