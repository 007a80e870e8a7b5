// Package ctrun runs one of controller-tools' own generators (rbac,
// webhook) on the packages the model already loaded and captures what it
// writes in memory, so the backends built on it produce exactly
// controller-gen's output without controller-gen's writer: modelgen's one
// writer puts the files on disk.
package ctrun

import (
	"bytes"
	"io"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"sigs.k8s.io/controller-tools/pkg/genall"
	"sigs.k8s.io/controller-tools/pkg/loader"
	"sigs.k8s.io/controller-tools/pkg/markers"

	"github.com/modelgen/modelgen/model"
)

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

// Run runs g on the given root packages of the model (all of them when
// roots is nil). Errors the generator returns or records on a package (a
// malformed marker) are positioned diagnostics.
func Run(m *model.Model, roots []*loader.Package, g genall.Generator, name string, read Input) ([]Output, model.Diagnostics) {
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
