package typecheck

import (
	"bytes"
	"context"
	"maps"
	"os"
	"slices"
	"sync"

	"github.com/modelgen/modelgen/model"
	"golang.org/x/tools/go/packages"
	"sigs.k8s.io/controller-tools/pkg/loader"
)

// Exports is the export data's go list (export.go), started as soon as go
// list has listed the root packages (model.Config.Listed), so that it runs
// while the loader parses and type-checks them, not after: the check asks
// for the dependencies the user's packages import, and those are known
// from the listing. It lists what the roots that may hold the model's
// types import (a root whose files carry a +groupName, +kubebuilder:object
// or +modelgen marker): not a controller's or a main package's graph,
// which the check of the model's packages does not read. A dependency the
// check asks for that this list did not reach is listed then, as before.
type Exports struct {
	cancel context.CancelFunc
	done   chan struct{}
	// by module root: the entries of every package the list reached
	lists map[string]map[string]*exportEntry
}

// Prefetch starts the export data's go list for the listed roots; nil when
// MODELGEN_EXPORTDATA=off. Close stops it when the run does not check.
func Prefetch(roots []*loader.Package) *Exports {
	if exportOff() || len(roots) == 0 {
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	x := &Exports{cancel: cancel, done: make(chan struct{}), lists: map[string]map[string]*exportEntry{}}
	var starts []*packages.Package
	for _, r := range roots {
		starts = append(starts, r.Package)
	}
	go func() {
		defer close(x.done)
		frontier := prefetchFrontier(modelCandidates(starts))
		var mu sync.Mutex
		var wg sync.WaitGroup
		for root, paths := range frontier {
			wg.Add(1)
			go func() {
				defer wg.Done()
				entries, err := listExport(ctx, root, slices.Sorted(maps.Keys(paths)))
				if err == nil {
					mu.Lock()
					x.lists[root] = entries
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
	}()
	return x
}

// Close stops the go list if it still runs; the list is not used after.
func (x *Exports) Close() {
	if x != nil {
		x.cancel()
	}
}

// entries waits for the list and returns what it found under a module
// root (nil when it did not list there).
func (x *Exports) entries(root string) map[string]*exportEntry {
	if x == nil {
		return nil
	}
	<-x.done
	return x.lists[root]
}

// modelMarkers are the markers of a package whose types may be the model's.
var modelMarkers = [][]byte{[]byte("+groupName"), []byte("+kubebuilder:object"), []byte("+modelgen:")}

// modelCandidates are the user's root packages a file of which carries a
// marker of the model's packages.
func modelCandidates(roots []*packages.Package) []*packages.Package {
	var out []*packages.Package
	for _, p := range roots {
		if !userPackage(p) {
			continue
		}
		files := append(slices.Clone(p.GoFiles), model.UntaggedFiles(p)...)
		for _, path := range files {
			data, err := os.ReadFile(path)
			if err == nil && slices.ContainsFunc(modelMarkers, func(m []byte) bool { return bytes.Contains(data, m) }) {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// prefetchFrontier is what exportData asks for below the starts, by module
// root: the dependencies outside the user's modules that a user's package
// (or a package above one) imports.
func prefetchFrontier(starts []*packages.Package) map[string]map[string]bool {
	deferred := map[*packages.Package]bool{}
	seen := map[*packages.Package]bool{}
	var order []*packages.Package
	var visit func(p *packages.Package)
	visit = func(p *packages.Package) {
		if seen[p] {
			return
		}
		seen[p] = true
		d := userPackage(p)
		for _, path := range slices.Sorted(maps.Keys(p.Imports)) {
			dep := p.Imports[path]
			visit(dep)
			d = d || deferred[dep]
		}
		deferred[p] = d
		order = append(order, p)
	}
	for _, p := range starts {
		visit(p)
	}
	frontier := map[string]map[string]bool{}
	for _, p := range order {
		if !deferred[p] {
			continue
		}
		root := model.ModuleRoot(loadedDir(p))
		for _, dep := range p.Imports {
			if deferred[dep] || dep.PkgPath == "unsafe" {
				continue
			}
			if frontier[root] == nil {
				frontier[root] = map[string]bool{}
			}
			frontier[root][dep.PkgPath] = true
		}
	}
	return frontier
}
