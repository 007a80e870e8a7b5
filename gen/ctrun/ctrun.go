// Package ctrun is the one skeleton of the backends built on
// controller-tools' own generators (gen/role: rbac, gen/webhookconfig:
// webhook, gen/applyconfig: applyconfiguration): it runs a generator on the
// packages the model already loaded and captures what it writes in memory,
// so the backends produce exactly controller-gen's output without
// controller-gen's writer: modelgen's one writer puts the files on disk. A
// backend says which runs it wants (Job) and where their files go; Generate
// does the rest.
package ctrun

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"sigs.k8s.io/controller-tools/pkg/genall"
	"sigs.k8s.io/controller-tools/pkg/loader"
	"sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/modelgen/modelgen/gen"
	"github.com/modelgen/modelgen/model"
)

// A Job is one run of a controller-tools generator.
type Job struct {
	Generator genall.Generator
	// Roots are the packages it runs on: nil is every root package of the
	// model, empty none (the job is skipped).
	Roots []*loader.Package
	// Place is where a file the generator wrote goes (an absolute path)
	// and its owner (gen.File.Owner).
	Place func(o Output) (path, owner string)
	// Check, when set, judges each file the generator wrote.
	Check func(o Output) model.Diagnostics
	// InPlace: the generator writes beside each root package itself, not
	// through genall's output rules (applyconfiguration hands the package
	// to gengo). Each root's directory is then, for the length of its run,
	// a mirror under a temporary directory: the generator writes there,
	// the files it wrote are collected at their real paths (Place is not
	// used; the files have no owner), and the mirror is removed.
	// Nothing reaches the tree unless the whole run succeeds.
	InPlace bool
}

// Generate runs a backend's jobs (name is the generator's name in
// diagnostics; read serves the files a generator reads, its headerFile)
// and returns their files, sorted by path within each job; none when any
// job fails.
func Generate(m *model.Model, name string, read Input, jobs []Job) ([]gen.File, model.Diagnostics) {
	var diags model.Diagnostics
	var files []gen.File
	for _, j := range jobs {
		if j.Roots != nil && len(j.Roots) == 0 {
			continue
		}
		if j.InPlace {
			f, d := inPlace(m, name, read, j)
			diags.Add(d)
			files = append(files, f...)
			continue
		}
		out, d := run(m, j.Roots, j.Generator, name, read)
		diags.Add(d)
		for _, o := range out {
			if j.Check != nil {
				diags.Add(j.Check(o))
			}
			path, owner := j.Place(o)
			files = append(files, gen.File{Path: path, Data: o.Data, Owner: owner})
		}
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return files, diags
}

// inPlace runs an InPlace job, root by root, in mirrors of their
// directories under one temporary directory: packages that share an output
// package (../../pkg/ac from two API versions) write its shared files once,
// the later over the earlier, as in the tree.
func inPlace(m *model.Model, name string, read Input, j Job) ([]gen.File, model.Diagnostics) {
	var diags model.Diagnostics
	tmp, err := os.MkdirTemp("", "modelgen-"+name+"-")
	if err != nil {
		diags.Errorf(model.Pos{}, "%s: %v", name, err)
		return nil, diags
	}
	defer os.RemoveAll(tmp)
	roots := j.Roots
	if roots == nil {
		roots = m.Loaded
	}
	for _, root := range roots {
		if root.Package == nil || root.Dir == "" || len(root.GoFiles) == 0 {
			continue
		}
		real, err := filepath.Abs(root.Dir)
		if err != nil {
			diags.Errorf(model.Pos{File: root.GoFiles[0]}, "%s: %v", name, err)
			continue
		}
		// the mirror holds the whole absolute path, so an output package
		// relative to the package directory (../../pkg/ac) stays inside it
		root.Dir = filepath.Join(tmp, real)
		_, d := run(m, []*loader.Package{root}, j.Generator, name, read)
		root.Dir = real
		diags.Add(d)
	}
	if diags.HasErrors() {
		return nil, diags
	}
	files, err := collect(tmp)
	if err != nil {
		diags.Errorf(model.Pos{}, "%s: collecting the generated files: %v", name, err)
		return nil, diags
	}
	return files, diags
}

// collect reads the files a generator wrote under a mirror, at their real
// paths, sorted. They have no owner: the output package is no package of
// the run, and several of its packages may write its shared files.
func collect(mirror string) ([]gen.File, error) {
	var files []gen.File
	err := filepath.WalkDir(mirror, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(mirror, path)
		if err != nil {
			return err
		}
		files = append(files, gen.File{Path: string(filepath.Separator) + rel, Data: data})
		return nil
	})
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files, err
}

// Output is one file a controller-tools generator wrote: Pkg is nil for a
// configuration artifact (role.yaml, manifests.yaml), as genall's output
// rules tell the two apart.
type Output struct {
	Pkg  *loader.Package
	Name string
	Data []byte
}

// Input reads a boilerplate file a generator names (headerFile); nil
// refuses every read, as a pure backend must.
type Input func(path string) ([]byte, error)

// run runs g on the given root packages of the model (all of them when
// roots is nil). Errors the generator returns or records on a package (a
// malformed marker) are positioned diagnostics.
func run(m *model.Model, roots []*loader.Package, g genall.Generator, name string, read Input) ([]Output, model.Diagnostics) {
	if roots == nil {
		roots = m.Loaded
	}
	var diags model.Diagnostics
	reg := &markers.Registry{}
	if err := g.RegisterMarkers(reg); err != nil {
		diags.Errorf(model.Pos{}, "%s: %v", name, err)
		return nil, diags
	}
	before := map[*loader.Package]int{}
	for _, r := range roots {
		before[r] = len(r.Errors)
	}
	out := &memory{}
	ctx := &genall.GenerationContext{
		Collector:  &markers.Collector{Registry: reg},
		Roots:      roots,
		Checker:    m.Checker,
		OutputRule: out,
		InputRule:  input{read},
	}
	err := g.Generate(ctx)
	for _, r := range roots {
		for _, e := range r.Errors[before[r]:] {
			diags.Errorf(Pos(e.Pos), "%s: %s", name, e.Msg)
		}
		r.Errors = r.Errors[:before[r]] // the model's packages stay as loaded
	}
	if err != nil {
		p := model.Pos{}
		if len(roots) > 0 && len(roots[0].GoFiles) > 0 {
			p = model.Pos{File: roots[0].GoFiles[0], Line: 1, Col: 1}
		}
		diags.Errorf(p, "%s: %v", name, err)
	}
	if diags.HasErrors() {
		return nil, diags
	}
	sort.SliceStable(out.files, func(i, j int) bool { return out.files[i].Name < out.files[j].Name })
	var files []Output
	for _, f := range out.files {
		files = append(files, Output{Pkg: f.pkg, Name: f.Name, Data: f.buf.Bytes()})
	}
	return files, diags
}

// Pos reads the position of an error controller-tools' loader recorded on
// a package ("file:line:col", "file:line" or a package ID).
func Pos(s string) model.Pos {
	parts := strings.Split(s, ":")
	if len(parts) >= 3 {
		line, _ := strconv.Atoi(parts[len(parts)-2])
		col, _ := strconv.Atoi(parts[len(parts)-1])
		return model.Pos{File: strings.Join(parts[:len(parts)-2], ":"), Line: line, Col: col}
	}
	if len(parts) == 2 {
		line, _ := strconv.Atoi(parts[1])
		return model.Pos{File: parts[0], Line: line, Col: 1}
	}
	return model.Pos{File: s}
}

type file struct {
	pkg  *loader.Package
	Name string
	buf  *bytes.Buffer
}

type memory struct{ files []*file }

type closer struct{ *bytes.Buffer }

func (closer) Close() error { return nil }

func (m *memory) Open(pkg *loader.Package, name string) (io.WriteCloser, error) {
	f := &file{pkg: pkg, Name: name, buf: &bytes.Buffer{}}
	m.files = append(m.files, f)
	return closer{f.buf}, nil
}

type input struct{ read Input }

func (in input) OpenForRead(path string) (io.ReadCloser, error) {
	if in.read == nil {
		return nil, errNoInput{path}
	}
	data, err := in.read(path)
	if err != nil {
		return nil, err
	}
	return io.NopCloser(bytes.NewReader(data)), nil
}

type errNoInput struct{ path string }

func (e errNoInput) Error() string {
	return "reading " + e.path + ": a backend reads no files (give the header in modelgen's header setting)"
}

// ByModule groups the model's root packages by the root directory of
// their module, in order of the directories.
func ByModule(m *model.Model) ([]string, map[string][]*loader.Package) {
	groups := map[string][]*loader.Package{}
	var dirs []string
	for _, r := range m.Loaded {
		if len(r.GoFiles) == 0 {
			continue
		}
		dir := model.ModuleRoot(filepath.Dir(r.GoFiles[0]))
		if _, ok := groups[dir]; !ok {
			dirs = append(dirs, dir)
		}
		groups[dir] = append(groups[dir], r)
	}
	sort.Strings(dirs)
	return dirs, groups
}

// Artifacts is where a backend of `modelgen controller-gen` puts the
// configuration files its generator writes (role.yaml, manifests.yaml):
// Dir, absolute; that command's output rules move them from there. Read
// serves the files the generator reads (its headerFile), read by the
// run's settings step, since a backend reads no files.
type Artifacts struct {
	Dir  string
	Read Input
}

// Place puts a file in Dir, with no owner: controller-gen's files carry
// no modelgen header.
func (a Artifacts) Place(o Output) (string, string) { return filepath.Join(a.Dir, o.Name), "" }

// Output declares a file of Dir.
func (a Artifacts) Output(name string) gen.Output {
	return gen.Output{Format: gen.FormatYAML, Dir: a.Dir, Name: gen.Quote(name)}
}
