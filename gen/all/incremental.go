package all

import (
	"encoding/json"
	"maps"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/internal/runcache"
	"github.com/modelgen/modelgen/model"
)

// An incremental run (internal/runcache's per-package record): when the
// files no root package owns (dependencies, go.mod, GOROOT's VERSION), the
// setting files and the files the type check read are as the recorded run
// left them, but some root packages' own files moved, the run loads only
//
//   - the dirty packages: those whose files (or generated files) moved, the
//     new ones, the root packages that import a dirty one (again and again),
//     the other packages of a dirty package's group (the CRD of a group is
//     made from all of its packages), and the importers and group peers of
//     a package that is gone;
//   - and what they import among the roots, with the group peers of those,
//     so that every loaded package is loaded as a full run loads it;
//
// generates and type-checks them, and replays the rest: their files (on
// disk with the recorded bytes), their diagnostics, their part of the
// writer's scope and of the summary. Anything the split cannot vouch for
// falls back to a full run: a record without packages (a file generated
// from the whole module, a diagnostic outside every root), a loaded package
// whose group is also a replayed one's, a generated file or diagnostic of a
// package not loaded, an error. Runs with output routing (controller-gen's)
// are never incremental.

// partial is the plan of an incremental run.
type partial struct {
	rec *runcache.Record
	// load are the import paths of the roots it loads, listed all of them
	load, listed map[string]bool
	// clean are the recorded packages it replays, data their files' bytes
	// by index into rec.Files
	clean []runcache.Package
	data  map[int][]byte
}

// settings are the recorded run's setting files (each package's
// modelgen.yaml, the header files), but those in the directory of a
// recorded package go list no longer lists: a full run over the same tree
// reads the same ones, so the record this run leaves is one its lookup
// finds whole.
func (pl *partial) settings() []string {
	goneDirs := map[string]bool{}
	for _, rp := range pl.rec.Packages {
		if !pl.listed[rp.Path] && rp.Dir != "" {
			goneDirs[rp.Dir] = true
		}
	}
	var out []string
	for _, p := range slices.Sorted(maps.Keys(pl.rec.Settings)) {
		if !goneDirs[filepath.Dir(p)] {
			out = append(out, p)
		}
	}
	return out
}

// ownFiles are the files go list gives for a root package itself.
func ownFiles(p *loader.Package) []string {
	var out []string
	for _, files := range [][]string{p.GoFiles, p.CompiledGoFiles, p.OtherFiles, p.IgnoredFiles, p.EmbedFiles} {
		out = append(out, files...)
	}
	return out
}

// packageDir is a root package's directory ("" without files).
func packageDir(p *loader.Package) string {
	if len(p.GoFiles) > 0 {
		return filepath.Dir(p.GoFiles[0])
	}
	return p.Dir
}

// rootImports are, by root, the other roots it imports.
func rootImports(roots []*loader.Package) map[string][]string {
	isRoot := map[string]bool{}
	for _, p := range roots {
		isRoot[p.PkgPath] = true
	}
	out := map[string][]string{}
	for _, p := range roots {
		var imps []string
		if p.Package != nil {
			for path := range p.Package.Imports {
				if isRoot[path] && path != p.PkgPath {
					imps = append(imps, path)
				}
			}
		}
		sort.Strings(imps)
		out[p.PkgPath] = imps
	}
	return out
}

// sharedSkip are the paths the shared digest leaves out: every root's own
// files and the run's outputs.
func sharedSkip(roots []*loader.Package, outputs map[string]bool) map[string]bool {
	skip := maps.Clone(outputs)
	if skip == nil {
		skip = map[string]bool{}
	}
	for _, p := range roots {
		for _, f := range ownFiles(p) {
			skip[f] = true
		}
	}
	return skip
}

// plan decides, once go list has listed the roots, whether the run can be
// incremental, and which roots it loads; nil is a full load.
func (h *hasher) plan(roots []*loader.Package) *partial {
	pre := h.preread()
	r := pre.record
	if r == nil || r.Packages == nil || pre.tool == "" {
		return nil
	}
	if !runcache.Current(r.Settings, h.immutable) || !r.ExtraCurrent(h.immutable) {
		return nil
	}
	sums := h.listedSums()
	outputs := map[string]bool{}
	for _, f := range r.Files {
		outputs[f.Path] = true
	}
	if sums.Digest(settingsSkip(sharedSkip(roots, outputs), slices.Collect(maps.Keys(r.Settings)))) != r.Shared {
		return nil
	}
	recorded := map[string]*runcache.Package{}
	groups := map[string][]string{}
	for i := range r.Packages {
		rp := &r.Packages[i]
		recorded[rp.Path] = rp
		if rp.Group != "" {
			groups[rp.Group] = append(groups[rp.Group], rp.Path)
		}
	}
	listed := map[string]bool{}
	data := map[int][]byte{}
	var dirty []string
	for _, p := range roots {
		listed[p.PkgPath] = true
		rp := recorded[p.PkgPath]
		if rp == nil || rp.Dir != packageDir(p) || sums.DigestOf(ownFiles(p), outputs) != rp.Inputs || !readFiles(r, rp, pre.data, data) {
			dirty = append(dirty, p.PkgPath)
		}
	}
	var gone bool
	for _, rp := range r.Packages {
		if listed[rp.Path] {
			continue
		}
		gone = true
		dirty = append(dirty, groups[rp.Group]...)
		for _, other := range r.Packages {
			if slices.Contains(other.Imports, rp.Path) {
				dirty = append(dirty, other.Path)
			}
		}
	}
	if len(dirty) == 0 && !gone {
		return nil // nothing of a package moved: the whole-run lookup decides
	}
	imports := rootImports(roots)
	importers := map[string][]string{}
	for p, imps := range imports {
		for _, i := range imps {
			importers[i] = append(importers[i], p)
		}
	}
	peers := func(path string) []string {
		if rp := recorded[path]; rp != nil && rp.Group != "" {
			return groups[rp.Group]
		}
		return nil
	}
	// dirty: what moved, its importers and group peers; loaded: that and
	// what it imports, with their group peers
	// (the imports of a package that held no types of the model are not
	// loaded for it: a controller that imports every API package reads
	// nothing of their types; covers checks that it still holds none)
	d := closure(dirty, func(p string) [][]string { return [][]string{importers[p], peers(p)} })
	load := closure(slices.Collect(maps.Keys(d)), func(p string) [][]string {
		if rp := recorded[p]; rp != nil && !rp.InModel {
			return [][]string{peers(p)}
		}
		return [][]string{imports[p], peers(p)}
	})
	for p := range load {
		if !listed[p] {
			delete(load, p)
		}
	}
	if len(load) >= len(roots) {
		return nil
	}
	pl := &partial{rec: r, load: load, listed: listed, data: map[int][]byte{}}
	for _, rp := range r.Packages {
		if listed[rp.Path] && !load[rp.Path] {
			pl.clean = append(pl.clean, rp)
			for _, i := range rp.Files {
				pl.data[i] = data[i]
			}
		}
	}
	return pl
}

// readFiles reads a recorded package's generated files into data; false
// when one is not on disk as recorded. read are the record's files as the
// run read them at its start when every one was as recorded (nil when
// not): they are not read again.
func readFiles(r *runcache.Record, rp *runcache.Package, read [][]byte, data map[int][]byte) bool {
	for _, i := range rp.Files {
		if read != nil {
			data[i] = read[i]
			continue
		}
		b, ok := r.CurrentFile(i)
		if !ok {
			return false
		}
		data[i] = b
	}
	return true
}

// closure is the set reached from start through next.
func closure(start []string, next func(string) [][]string) map[string]bool {
	seen := map[string]bool{}
	queue := slices.Clone(start)
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if seen[p] {
			continue
		}
		seen[p] = true
		for _, ps := range next(p) {
			queue = append(queue, ps...)
		}
	}
	return seen
}

// selected are the roots the plan loads, in go list's order.
func (pl *partial) selected(roots []*loader.Package) []*loader.Package {
	var out []*loader.Package
	for _, p := range roots {
		if pl.load[p.PkgPath] {
			out = append(out, p)
		}
	}
	return out
}

// covers reports whether what the loaded packages gave is theirs alone:
// every package of the model, generated file and diagnostic belongs to a
// loaded root (or is a module file made of the replayed packages' parts
// too, by a backend of replayers), every package of the model was loaded
// with the roots it imports, and no loaded package shares its group with
// a replayed one.
func (pl *partial) covers(m *model.Model, files []gen.File, diags model.Diagnostics, replayers map[string]bool) bool {
	dirs := map[string]bool{}
	for _, p := range m.Loaded {
		dirs[packageDir(p)] = true
	}
	cleanGroups := map[string]bool{}
	for _, rp := range pl.clean {
		cleanGroups[rp.Group] = rp.Group != ""
	}
	for _, pk := range m.Packages {
		if !pl.load[pk.Path] || cleanGroups[pk.Group] || pk.Loaded == nil || pk.Loaded.Package == nil {
			return false
		}
		for imp := range pk.Loaded.Package.Imports {
			if pl.listed[imp] && !pl.load[imp] {
				return false
			}
		}
	}
	for _, f := range files {
		if !pl.load[f.Owner] && !moduleFile(f, replayers) {
			return false
		}
	}
	for _, d := range diags {
		if !dirs[filepath.Dir(d.Pos.File)] {
			return false
		}
	}
	return true
}

// replay are the replayed packages' parts of the module files, for each
// backend of the run that is a gen.Replayer and whose part every replayed
// package has: replayers are those backends, the only ones whose module
// files the run may write.
func (pl *partial) replay(backends []gen.Backend, roots []*loader.Package) (*gen.Replay, map[string]bool) {
	out := &gen.Replay{Parts: map[string][]gen.Part{}}
	for _, p := range roots {
		out.Roots = append(out.Roots, p.PkgPath)
	}
	for _, rp := range pl.clean {
		out.Outputs = append(out.Outputs, rp.Outputs...)
	}
	replayers := map[string]bool{}
	for _, g := range backends {
		if _, ok := g.(gen.Replayer); !ok {
			continue
		}
		var parts []gen.Part
		for _, rp := range pl.clean {
			data, ok := rp.Parts[g.Name()]
			if !ok {
				parts = nil
				break
			}
			parts = append(parts, gen.Part{Path: rp.Path, Data: data})
		}
		if parts != nil {
			out.Parts[g.Name()], replayers[g.Name()] = parts, true
		}
	}
	return out, replayers
}

// replayed are the replayed packages' files, diagnostics and counts.
func (pl *partial) replayed() ([]gen.File, model.Diagnostics, Counts) {
	var files []gen.File
	var diags model.Diagnostics
	var n Counts
	for _, rp := range pl.clean {
		for _, i := range rp.Files {
			f := pl.rec.Files[i]
			files = append(files, gen.File{Path: f.Path, Data: pl.data[i], Owner: f.Owner, Backend: f.Backend})
		}
		diags = append(diags, rp.Diags...)
		n.Types, n.Fields, n.Checks = n.Types+rp.Types, n.Fields+rp.Fields, n.Checks+rp.Checks
	}
	return files, diags, n
}

// split divides a run by root package (runcache.Record.Packages): nil
// when it cannot be (a package of the model, a generated file or a
// diagnostic that is no root's; outputs declared for no single package).
// prior are recorded packages the run replayed, kept as they were.
func split(m *model.Model, configs map[string]gen.Config, backends []gen.Backend, roots []*loader.Package, sums runcache.Sums, files []gen.File, diags model.Diagnostics, prior []runcache.Package) []runcache.Package {
	outputs := map[string]bool{}
	for _, f := range files {
		outputs[filepath.Clean(f.Path)] = true
	}
	imports := rootImports(roots)
	byPath := map[string]*runcache.Package{}
	byDir := map[string]*runcache.Package{}
	var out []*runcache.Package
	replayed := map[string]bool{}
	for _, rp := range prior {
		replayed[rp.Path] = true
	}
	for _, p := range roots {
		rp := &runcache.Package{Path: p.PkgPath, Dir: packageDir(p), Imports: imports[p.PkgPath], Inputs: sums.DigestOf(ownFiles(p), outputs)}
		for _, prev := range prior {
			if prev.Path == p.PkgPath {
				prev.Imports, prev.Inputs, prev.Files = rp.Imports, rp.Inputs, nil
				*rp = prev
			}
		}
		byPath[rp.Path] = rp
		if rp.Dir != "" {
			byDir[rp.Dir] = rp
		}
		out = append(out, rp)
	}
	for _, pk := range m.Packages {
		rp := byPath[pk.Path]
		if rp == nil || replayed[pk.Path] || pk.Dir != rp.Dir {
			return nil
		}
		rp.InModel, rp.ModDir, rp.Group = true, pk.ModDir, pk.Group
		sub := *m
		sub.Packages = []*model.Package{pk}
		rp.Outputs = gen.Declared(&sub, configs, Backends())
		n := count([]*model.Package{pk})
		rp.Types, rp.Fields, rp.Checks = n.Types, n.Fields, n.Checks
	}
	// the packages' outputs together are the run's (with the replayed
	// packages', as the writer's scope of an incremental run has them: the
	// module files a loaded controller declares are theirs too)
	whole := gen.Declared(m, configs, Backends())
	var parts []gen.Output
	for _, rp := range out {
		parts = append(parts, rp.Outputs...)
		if replayed[rp.Path] {
			whole = append(whole, rp.Outputs...)
		}
	}
	if !slices.Equal(dedupOutputs(parts), dedupOutputs(whole)) {
		return nil
	}
	for _, d := range diags {
		rp := byDir[filepath.Dir(d.Pos.File)]
		if rp == nil {
			return nil
		}
		if !replayed[rp.Path] {
			rp.Diags = append(rp.Diags, d)
		}
	}
	replayers := recordParts(m, configs, backends, byPath, replayed)
	for i, f := range files {
		if moduleFile(f, replayers) {
			continue // made again of the parts in every run
		}
		rp := byPath[f.Owner]
		if rp == nil {
			return nil
		}
		rp.Files = append(rp.Files, i)
	}
	res := make([]runcache.Package, len(out))
	for i, rp := range out {
		res[i] = *rp
	}
	return res
}

// recordParts puts each loaded root's parts of the module files in its
// record (gen.Replayer), and returns the backends that gave every root's.
func recordParts(m *model.Model, configs map[string]gen.Config, backends []gen.Backend, byPath map[string]*runcache.Package, replayed map[string]bool) map[string]bool {
	c := &gen.Context{Model: m, Configs: configs}
	out := map[string]bool{}
	for _, g := range backends {
		r, ok := g.(gen.Replayer)
		if !ok {
			continue
		}
		parts, ok := r.Parts(c)
		for _, p := range m.Loaded {
			_, has := parts[p.PkgPath]
			ok = ok && has && byPath[p.PkgPath] != nil
		}
		if !ok {
			continue
		}
		for path, data := range parts {
			rp := byPath[path]
			if rp == nil || replayed[path] {
				continue
			}
			if rp.Parts == nil {
				rp.Parts = map[string]json.RawMessage{}
			}
			rp.Parts[g.Name()] = data
		}
		out[g.Name()] = true
	}
	return out
}

// moduleFile: f is a file generated from a whole module (gen.ModuleOwner)
// by a backend of replayers, which makes it of every root's part.
func moduleFile(f gen.File, replayers map[string]bool) bool {
	return replayers[f.Backend] && strings.HasPrefix(f.Owner, gen.ModuleOwner(""))
}

// dedupOutputs sorts outputs and drops repeats.
func dedupOutputs(outs []gen.Output) []gen.Output {
	// each output's key made once: made in the comparison, it was a tenth
	// of an incremental run's time at 1000 kinds
	type keyed struct {
		key string
		out gen.Output
	}
	ks := make([]keyed, len(outs))
	for i, o := range outs {
		ks[i] = keyed{o.String(), o}
	}
	slices.SortFunc(ks, func(a, b keyed) int { return strings.Compare(a.key, b.key) })
	sorted := make([]gen.Output, len(ks))
	for i, k := range ks {
		sorted[i] = k.out
	}
	return slices.Compact(sorted)
}

// Counts are what a run's summary counts: types, their fields, and the
// constraints on them.
type Counts struct{ Types, Fields, Checks int }

// count counts the types of packages.
func count(pkgs []*model.Package) Counts {
	var n Counts
	for _, pk := range pkgs {
		for _, t := range pk.Types {
			n.Types++
			for _, f := range t.Fields {
				n.Fields++
				if f.Validate != nil {
					n.Checks += countChecks(f.Validate.Root)
				}
			}
		}
	}
	return n
}

func countChecks(lv *model.Level) int {
	if lv == nil {
		return 0
	}
	return len(lv.Checks) + countChecks(lv.Dive) + countChecks(lv.Keys)
}

// settingsSkip adds the setting files to skip.
func settingsSkip(skip map[string]bool, settings []string) map[string]bool {
	for _, p := range settings {
		skip[p] = true
	}
	return skip
}
