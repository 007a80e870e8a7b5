package all

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"time"

	"golang.org/x/tools/go/packages"
	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/internal/runcache"
	"github.com/modelgen/modelgen/model"
)

// A run with nothing to change (internal/runcache): when every file the
// last successful run of this command line read has the content it had,
// and every file it generated is on disk as it left it, the backends and
// the type check are skipped and the writer gets the files on disk.

// listedFiles are the files go list gave for the loaded packages and all
// their dependencies (the ones a build tag left out too: the type check
// reads a dependency's deepcopy file), their modules' go.mod, and GOROOT's
// VERSION.
func listedFiles(roots []*loader.Package) []string {
	var out []string
	seen := map[*packages.Package]bool{}
	var visit func(p *packages.Package)
	visit = func(p *packages.Package) {
		if p == nil || seen[p] {
			return
		}
		seen[p] = true
		for _, files := range [][]string{p.GoFiles, p.CompiledGoFiles, p.OtherFiles, p.IgnoredFiles, p.EmbedFiles} {
			out = append(out, files...)
		}
		if p.Module != nil && p.Module.GoMod != "" {
			out = append(out, p.Module.GoMod)
		}
		for _, path := range slices.Sorted(maps.Keys(p.Imports)) {
			visit(p.Imports[path])
		}
	}
	for _, p := range roots {
		visit(p.Package)
	}
	return append(out, goVersionFile()...)
}

// hasher does the cache's reading while Load parses and resolves the
// packages, so that a run with nothing to change costs about the load
// alone: from the start, the record of the command line and the files it
// names (the generated files, the extra inputs); once go list has listed
// the packages (model.Config.Listed), their files.
type hasher struct {
	cache     runcache.Cache
	key       string
	immutable []string
	done      chan runcache.Sums
	pre       chan preread
	// roots are every root package go list listed (an incremental run
	// loads some of them)
	roots []*loader.Package
}

// preread is the record of the command line, read before the load ends:
// data are its generated files' bytes when each still has its sum, and
// extra tells whether its extra inputs still have theirs.
type preread struct {
	tool   string
	record *runcache.Record
	data   [][]byte
	extra  bool
}

// startHashing returns the hasher of a run, nil when the cache is off or
// the run has no key.
func startHashing(key string) *hasher {
	if key == "" {
		return nil
	}
	cache := runcache.Open()
	if cache.Dir() == "" {
		return nil
	}
	h := &hasher{cache: cache, key: key, immutable: immutableRoots(), done: make(chan runcache.Sums, 1), pre: make(chan preread, 1)}
	go func() {
		var p preread
		p.tool, _ = runcache.ToolID()
		if r := cache.Load(key); r != nil && p.tool != "" && r.Tool == p.tool {
			p.record = r
			if data, ok := r.Current(); ok {
				p.data, p.extra = data, r.ExtraCurrent(h.immutable)
			}
		}
		h.pre <- p
	}()
	return h
}

// listed starts summing the files of the listed packages.
func (h *hasher) listed(roots []*loader.Package) {
	h.roots = roots
	files := listedFiles(roots)
	go func() { h.done <- runcache.Hash(files, h.immutable) }()
}

// sums waits for the listed files' sums and adds the setting files'.
func (h *hasher) sums(more []string) runcache.Sums {
	s := h.listedSums()
	s = runcache.Sums{Files: maps.Clone(s.Files), Modified: maps.Clone(s.Modified)}
	m := runcache.Hash(more, h.immutable)
	for p, sum := range m.Files {
		s.Files[p] = sum
	}
	for p, t := range m.Modified {
		s.Modified[p] = t
	}
	return s
}

// listedSums waits for the listed files' sums.
func (h *hasher) listedSums() runcache.Sums {
	s := <-h.done
	h.done <- s // a second call gets them too
	return s
}

// preread waits for the record of the command line.
func (h *hasher) preread() preread {
	p := <-h.pre
	h.pre <- p // a second call gets it too
	return p
}

// immutableRoots are where files never change under their path: the
// module cache (a module's directory names its version), and GOROOT when
// it is a release (its VERSION file, hashed by content as an input, names
// it; a GOROOT without one, a Go built from source, is hashed file by file).
func immutableRoots() []string {
	roots := model.LibraryRoots()
	if len(roots) != 2 {
		return nil
	}
	var out []string
	if goroot := roots[0]; goroot != "" {
		if fi, err := os.Stat(filepath.Join(goroot, "VERSION")); err == nil && fi.Mode().IsRegular() {
			out = append(out, filepath.Clean(goroot))
		}
	}
	if roots[1] != "" {
		out = append(out, filepath.Clean(roots[1]))
	}
	return out
}

// goVersionFile is GOROOT's VERSION, an input of every run.
func goVersionFile() []string {
	if roots := model.LibraryRoots(); len(roots) == 2 && roots[0] != "" {
		return []string{filepath.Join(filepath.Clean(roots[0]), "VERSION")}
	}
	return nil
}

// cached is a lookup's result: the inputs as this run found them, and on a
// hit the recorded run's files (with their bytes on disk) and diagnostics.
type cached struct {
	cache     runcache.Cache
	key       string
	tool      string
	sums      runcache.Sums
	start     time.Time
	immutable []string

	hit   bool
	files []gen.File
	diags model.Diagnostics

	// for the record: the setting files the run read, every root go list
	// listed, the run's split by package (nil: none), and the recorded
	// extra files an incremental run keeps
	inputs []string
	roots  []*loader.Package
	parts  []runcache.Package
	extra  map[string]string
}

// lookup sums the run's inputs and compares them with the record of its
// command line.
func lookup(h *hasher, inputs []string, start time.Time) *cached {
	if h == nil {
		return nil
	}
	p := h.preread()
	if p.tool == "" {
		return nil
	}
	c := &cached{cache: h.cache, key: h.key, tool: p.tool, start: start, immutable: h.immutable}
	c.sums = h.sums(inputs)
	r := p.record
	if r == nil || p.data == nil || !p.extra {
		return c
	}
	outputs := map[string]bool{}
	for _, f := range r.Files {
		outputs[f.Path] = true
	}
	if c.sums.Digest(outputs) != r.Inputs {
		return c
	}
	c.hit = true
	for i, f := range r.Files {
		c.files = append(c.files, gen.File{Path: f.Path, Data: p.data[i], Owner: f.Owner, Backend: f.Backend})
	}
	c.diags = r.Diags
	return c
}

// save records a run that finished without an error: files are what it
// generated (stamped, as the writer puts them on disk), extra the files
// the type check read beyond the loaded packages. A record claims no more
// than a lookup checks: under --check, or when a file could not be
// written, the files on disk differ from the record, and the next run
// does the work.
func (c *cached) save(files []gen.File, diags model.Diagnostics, extra []string) {
	if c == nil || c.hit || diags.HasErrors() {
		return
	}
	outputs := map[string]bool{}
	r := &runcache.Record{Tool: c.tool, Diags: diags}
	for _, f := range files {
		path := filepath.Clean(f.Path)
		outputs[path] = true
		r.Files = append(r.Files, runcache.File{Path: path, Owner: f.Owner, Backend: f.Backend, Sum: runcache.Sum(f.Data)})
	}
	extraSums := runcache.Hash(extra, c.immutable)
	// an input written this close to the run may have changed after the
	// run read it: the next run does the work again (the generated files
	// are compared by content, however recent)
	if c.sums.Recent(c.start, outputs) || extraSums.Recent(c.start, outputs) {
		return
	}
	for p := range outputs {
		delete(extraSums.Files, p)
	}
	r.Extra = extraSums.Files
	for p, sum := range c.extra {
		if _, ok := r.Extra[p]; !ok && !outputs[p] {
			r.Extra[p] = sum
		}
	}
	r.Inputs = c.sums.Digest(outputs)
	if c.parts != nil {
		r.Packages = c.parts
		r.Settings = map[string]string{}
		for _, p := range c.inputs {
			r.Settings[p] = c.sums.Files[p]
		}
		// the settings are no shared input (they are compared apart)
		r.Shared = c.sums.Digest(settingsSkip(sharedSkip(c.roots, outputs), c.inputs))
	}
	c.cache.Save(c.key, r) // a record that cannot be written is a miss next time
}
