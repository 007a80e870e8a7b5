package all

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/internal/runcache"
	"github.com/modelgen/modelgen/internal/typecheck"
	"github.com/modelgen/modelgen/internal/writer"
	"github.com/modelgen/modelgen/model"
)

// A Run is one generation, every step of it: load → settings → run cache →
// backends → declared-output check → type check → headers → output
// routing → writer. `modelgen generate` (the backends of the list, or
// --only's selection, with modelgen.yaml's settings) and `modelgen
// controller-gen` (ControllerGen) are two Runs.
type Run struct {
	// Load says what to load (the run sets Listed for its cache, and
	// TypesOnly when every backend reads the types' schemas only).
	Load model.Config
	// Backends run in this order.
	Backends []gen.Backend
	// Only: the backends are a selection of the list (--only), so the
	// files the others generated are not this run's to remove.
	Only bool
	// Settings returns each package's settings and the mistakes in them;
	// an error is a usage error, which ends the run before anything is
	// generated. Nil is every package's defaults.
	Settings func(m *model.Model) (map[string]gen.Config, model.Diagnostics, error)
	// Inputs are the files Settings read (modelgen.yaml, header files):
	// the run cache sums them with the packages' files.
	Inputs func(m *model.Model, configs map[string]gen.Config) []string
	// CacheKey names the run's record in the run cache (internal/runcache:
	// a run whose inputs have not moved skips the backends and the type
	// check); "" runs without the cache.
	CacheKey string
	// Headers returns the licence that heads the Go files of each owner
	// ("" keeps the one on disk); nil is none.
	Headers func(m *model.Model, configs map[string]gen.Config) (func(owner string) string, error)
	// Route puts each file where the command line's output rules say
	// (controller-gen's), after the headers; nil leaves them where the
	// backends put them.
	Route func(files []gen.File) ([]gen.File, error)
	// Remove: the files earlier runs generated that this one no longer
	// does are removed (writer.Scope). controller-gen removes nothing.
	Remove bool
	// Check writes nothing and reports what is stale (--check).
	Check bool
	// Phase, when set, names each long step as it starts (progress).
	Phase func(name string)
}

// Step names the step a run failed at with an error that is no
// diagnostic.
type Step int

const (
	StepLoad     Step = iota + 1 // the packages could not be loaded
	StepSettings                 // a setting is a usage error
	StepHeaders                  // a header could not be read or is not a header
	StepWrite                    // routing or the writer failed
)

// Result is what a run did.
type Result struct {
	Model *model.Model
	// Diags are the run's diagnostics, sorted; with an error among them
	// nothing was written.
	Diags model.Diagnostics
	// Err, when set, failed the run at Failed.
	Err    error
	Failed Step
	// Files are the files handed to the writer (stamped), Written what it
	// did with them.
	Files   []gen.File
	Written writer.Result
	// Cached: nothing the backends read had moved since the recorded run,
	// so they did not run.
	Cached bool
	// Replayed are the packages an incremental run did not load: their
	// part of the recorded run was replayed.
	Replayed []string
	// Counts are the summary's counts, the replayed packages' included.
	Counts Counts
	// TakenOver are files on disk as another generator (controller-gen,
	// deepcopy-gen) wrote them that this run rewrites (a run without
	// output routing).
	TakenOver []writer.TakenOver
}

// Execute runs every step.
func (r Run) Execute() Result { return r.execute(true) }

// execute runs every step; incremental lets the run cache load only the
// packages whose inputs moved (incremental.go).
func (r Run) execute(incremental bool) Result {
	phase := r.Phase
	if phase == nil {
		phase = func(string) {}
	}
	phase("loading packages")
	start := time.Now()
	hashing := startHashing(r.CacheKey)
	lcfg := r.Load
	lcfg.TypesOnly = lcfg.TypesOnly || schemasOnly(r.Backends)
	// the type check's go list of export data starts once the packages are
	// listed (the ones an incremental run loads), to run while the loader
	// parses them, when the run may write Go (a run that reads the schemas
	// only writes none)
	var exports *typecheck.Exports
	defer func() { exports.Close() }()
	prefetch := !lcfg.TypesOnly
	var plan *partial
	lcfg.Listed = func(roots []*loader.Package) {
		if hashing != nil {
			hashing.listed(roots)
		}
	}
	lcfg.Select = func(roots []*loader.Package) []*loader.Package {
		if hashing != nil && incremental && r.Route == nil {
			if plan = hashing.plan(roots); plan != nil {
				roots = plan.selected(roots)
			}
		}
		if prefetch {
			exports = typecheck.Prefetch(roots)
		}
		return roots
	}
	m, err := model.Load(lcfg)
	if err != nil {
		if plan != nil {
			exports.Close()
			return r.execute(false)
		}
		return Result{Err: err, Failed: StepLoad}
	}
	res := Result{Model: m}
	configs, diags := gen.DefaultConfigs(m), model.Diagnostics(nil)
	if r.Settings != nil {
		configs, diags, err = r.Settings(m)
		if err != nil {
			if plan != nil {
				exports.Close()
				return r.execute(false)
			}
			res.Err, res.Failed = err, StepSettings
			return res
		}
	}
	if plan != nil {
		if res, ok := r.partial(m, configs, diags, hashing, plan, start, phase, exports); ok {
			return res
		}
		exports.Close()
		return r.execute(false)
	}
	var files []gen.File
	var cache *cached
	var extra []string
	if !diags.HasErrors() && !m.Diags.HasErrors() {
		var inputs []string
		if r.Inputs != nil && hashing != nil {
			inputs = r.Inputs(m, configs)
		}
		cache = lookup(hashing, inputs, start)
		if cache != nil {
			cache.inputs, cache.roots = inputs, m.Loaded
		}
	}
	switch {
	case cache != nil && cache.hit:
		// nothing the backends read has moved: they would generate what
		// is on disk (headed and routed), with the diagnostics they gave
		// then
		files, diags = cache.files, cache.diags
		res.Cached = true
		exports.Close()
	case !diags.HasErrors():
		files, extra = r.generate(m, configs, &diags, phase, exports, nil)
	default:
		diags.Add(m.Diags)
	}
	res.Diags = diags.Sorted()
	res.Counts = count(m.Packages)
	if res.Diags.HasErrors() {
		return res
	}
	if !res.Cached {
		if files, err = r.head(m, configs, files); err != nil {
			res.Err, res.Failed = err, StepHeaders
			return res
		}
		if r.Route != nil {
			if files, err = r.Route(files); err != nil {
				res.Err, res.Failed = err, StepWrite
				return res
			}
		}
	}
	// the YAML files get their owner header once; SyncScope finds it there
	res.Files = writer.Stamp(files)
	if r.Remove {
		res.Written, err = writer.SyncScope(res.Files, r.Check, r.scope(m, configs, m.Loaded, nil))
	} else {
		res.Written, err = writer.Write(res.Files, r.Check)
	}
	if err != nil {
		res.Err, res.Failed = err, StepWrite
		return res
	}
	if r.Route == nil {
		// the native run takes over controller-gen's files; the drop-in
		// rewrites them as controller-gen would
		res.TakenOver = res.Written.TakenOver
	}
	if cache != nil && !cache.hit && r.Route == nil {
		cache.parts = split(m, configs, r.Backends, m.Loaded, cache.sums, res.Files, res.Diags, nil)
	}
	cache.save(res.Files, res.Diags, extra)
	return res
}

// partial is an incremental run: the loaded packages generated, the
// others replayed. ok is false when the run must be a full one instead
// (before anything is written).
func (r Run) partial(m *model.Model, configs map[string]gen.Config, diags model.Diagnostics, h *hasher, plan *partial, start time.Time, phase func(string), exports *typecheck.Exports) (Result, bool) {
	res := Result{Model: m}
	if diags.HasErrors() || m.Diags.HasErrors() {
		return res, false
	}
	var inputs []string
	if r.Inputs != nil {
		inputs = r.Inputs(m, configs)
	}
	inputs = append(inputs, plan.settings()...)
	cache := lookup(h, inputs, start)
	if cache == nil || cache.hit {
		return res, false
	}
	replay, replayers := plan.replay(r.Backends, h.roots)
	files, extra := r.generate(m, configs, &diags, phase, exports, replay)
	if diags.HasErrors() || !plan.covers(m, files, diags, replayers) {
		return res, false
	}
	files, err := r.head(m, configs, files)
	if err != nil {
		return res, false
	}
	more, replayedDiags, n := plan.replayed()
	diags = append(diags, replayedDiags...)
	res.Diags = diags.Sorted()
	res.Counts = count(m.Packages)
	res.Counts.Types, res.Counts.Fields, res.Counts.Checks = res.Counts.Types+n.Types, res.Counts.Fields+n.Fields, res.Counts.Checks+n.Checks
	for _, rp := range plan.clean {
		res.Replayed = append(res.Replayed, rp.Path)
	}
	res.Files = writer.Stamp(append(files, more...))
	if r.Remove {
		res.Written, err = writer.SyncScope(res.Files, r.Check, r.scope(m, configs, h.roots, plan.clean))
	} else {
		res.Written, err = writer.Write(res.Files, r.Check)
	}
	if err != nil {
		res.Err, res.Failed = err, StepWrite
		return res, true
	}
	res.TakenOver = res.Written.TakenOver
	cache.inputs, cache.roots = inputs, h.roots
	cache.parts = split(m, configs, r.Backends, h.roots, cache.sums, res.Files, res.Diags, plan.clean)
	cache.extra = plan.rec.Extra
	cache.save(res.Files, res.Diags, extra)
	return res, true
}

// generate runs the backends, checks their files against what they
// declare, and type-checks the generated Go code beside the user's
// (replay: the replayed packages' parts of the module files).
func (r Run) generate(m *model.Model, configs map[string]gen.Config, diags *model.Diagnostics, phase func(string), exports *typecheck.Exports, replay *gen.Replay) ([]gen.File, []string) {
	// the generated Go code is type-checked when a backend of the run may
	// write Go code into the packages (--only crd writes none, and then
	// costs what controller-gen crd costs)
	checks := writesGo(m, configs, r.Backends)
	if !checks {
		exports.Close()
	}
	phase("generating")
	files, d := generateReplaying(m, configs, r.Backends, replay)
	diags.Add(d)
	if diags.HasErrors() || !checks {
		return files, nil
	}
	// never write Go code that does not compile beside the user's. The
	// check reads the dependencies' export data once the backends are
	// done, not beside them: the backends' schemas and CRDs are garbage by
	// then, so the two never add up at the run's peak (afterBackends)
	phase("type-checking with the generated code")
	check := afterBackends(m, exports)
	diags.Add(check.Compile(gen.GoFiles(packageFiles(m, configs, r.Backends, files))))
	return files, check.Extra()
}

// afterBackends starts the type check of what the backends generated
// (typecheck.StartWith): a variable, so that a test can see that it
// starts after the backends have run.
var afterBackends = typecheck.StartWith

// head puts the licence on the generated Go files (writer.Headers): the
// run's, else the one each file on disk has.
func (r Run) head(m *model.Model, configs map[string]gen.Config, files []gen.File) ([]gen.File, error) {
	header := func(string) string { return "" }
	if r.Headers != nil {
		var err error
		if header, err = r.Headers(m, configs); err != nil {
			return nil, err
		}
	}
	return writer.Headers(files, header)
}

// scope is what the run may remove: files of its packages, generated by
// the backends that ran, where the backends declare their outputs, in the
// packages' directories and wherever the run writes; YAML anywhere in the
// packages' modules (output moved elsewhere in the module).
// An incremental run adds the replayed packages' recorded part (clean),
// so that its scope is a full run's.
func (r Run) scope(m *model.Model, configs map[string]gen.Config, roots []*loader.Package, clean []runcache.Package) writer.Scope {
	sc := writer.Scope{Packages: map[string]string{}, Outputs: gen.Declared(m, configs, Backends()), Modules: wholeModules(roots, r.Load.Dir, r.Load.Patterns), Covered: covered(roots, r.Load.Dir, r.Load.Patterns)}
	for _, pk := range m.Packages {
		sc.Packages[pk.Path] = pk.Dir
		if pk.ModDir != "" {
			sc.Roots = append(sc.Roots, pk.ModDir)
		}
	}
	if clean != nil {
		for _, rp := range clean {
			if rp.InModel {
				sc.Packages[rp.Path] = rp.Dir
				if rp.ModDir != "" {
					sc.Roots = append(sc.Roots, rp.ModDir)
				}
			}
			sc.Outputs = append(sc.Outputs, rp.Outputs...)
		}
		sc.Outputs = dedupOutputs(sc.Outputs)
	}
	if r.Only {
		sc.Backends = map[string]bool{}
		for _, g := range r.Backends {
			sc.Backends[g.Name()] = true
		}
	}
	return sc
}

// schemasOnly: every backend of the run reads the types' schemas and
// markers only (--only crd, role, webhookconfig; controller-gen's crd,
// rbac and webhook), so the load checks only what the types' JSON fields
// reach (model.Config.TypesOnly).
func schemasOnly(selected []gen.Backend) bool {
	for _, g := range selected {
		switch g.Name() {
		case "crd", "role", "webhookconfig":
		default:
			return false
		}
	}
	return len(selected) > 0
}

// writesGo reports whether a backend of the run declares a Go output in
// the packages (not a package tree of its own, gen.Output.Tree).
func writesGo(m *model.Model, configs map[string]gen.Config, selected []gen.Backend) bool {
	for _, o := range gen.Declared(m, configs, selected) {
		if o.Format == gen.FormatGo && !o.Tree {
			return true
		}
	}
	return false
}

// packageFiles are the files the type check judges: all but those of
// package trees of their own (gen.Output.Tree).
func packageFiles(m *model.Model, configs map[string]gen.Config, backends []gen.Backend, files []gen.File) []gen.File {
	var trees []gen.Output
	for _, o := range gen.Declared(m, configs, backends) {
		if o.Tree {
			trees = append(trees, o)
		}
	}
	if len(trees) == 0 {
		return files
	}
	var out []gen.File
	for _, f := range files {
		inTree := false
		for _, o := range trees {
			inTree = inTree || o.Backend == f.Backend && o.Match(f.Path)
		}
		if !inTree {
			out = append(out, f)
		}
	}
	return out
}

// wholeModules lists the modules whose every package the patterns name: a
// pattern ending in /... (or ...) whose directory is the module's root or
// above it, or whose import path is the module's or a prefix of it. Only a
// run over a whole module may remove the files generated from the module
// (gen.ModuleOwner): a go:generate line per package runs on one package
// and cannot tell whether the others still generate them.
func wholeModules(roots []*loader.Package, dir string, patterns []string) map[string]bool {
	out := map[string]bool{}
	if dir == "" {
		dir = "."
	}
	for _, r := range roots {
		mod := r.Module
		if mod == nil || mod.Path == "" || mod.Dir == "" || out[mod.Path] {
			continue
		}
		for _, p := range patterns {
			if CoversModule(p, dir, mod.Path, mod.Dir) {
				out[mod.Path] = true
				break
			}
		}
	}
	return out
}

// covered reports whether one of the patterns, run in dir, names the
// package of an import path in the module of one of the roots
// (gen.Covers), and not in a module nested below that one: the packages
// whose earlier output the run may call its own, loaded or not.
func covered(roots []*loader.Package, dir string, patterns []string) func(string) bool {
	mods := map[string]string{} // module path -> root directory
	for _, r := range roots {
		if r.Module != nil && r.Module.Path != "" && r.Module.Dir != "" {
			mods[r.Module.Path] = r.Module.Dir
		}
	}
	return func(path string) bool {
		for modPath, modDir := range mods {
			target := "."
			if path != modPath {
				rest, ok := strings.CutPrefix(path, modPath+"/")
				if !ok || nestedModule(modDir, rest) {
					continue
				}
				target = "./" + rest
			}
			for _, p := range patterns {
				if gen.Covers(p, dir, modPath, modDir, target) {
					return true
				}
			}
		}
		return false
	}
}

// nestedModule reports whether a directory on the way from modDir down to
// its subdirectory rel (which need not exist) holds a go.mod of its own.
func nestedModule(modDir, rel string) bool {
	d := modDir
	for _, part := range strings.Split(rel, "/") {
		d = filepath.Join(d, part)
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return true
		}
	}
	return false
}

// CoversModule reports whether a package pattern, run in dir, names every
// package of the module of the given path and root directory.
func CoversModule(pattern, dir, modPath, modDir string) bool {
	return gen.Covers(pattern, dir, modPath, modDir, "./...")
}
