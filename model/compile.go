package model

import (
	"path/filepath"
	"strings"

	"golang.org/x/tools/go/packages"
	"sigs.k8s.io/controller-tools/pkg/loader"

	"github.com/modelgen/modelgen/internal/fsread"
)

// compiled is the go tool's view of the root packages. Load parses them
// (a syntax error anywhere stops the run: controller-tools would see no
// types); Compile type-checks the model's packages from source, function
// bodies included, against their dependencies' export data, with the
// generated files in place. The CRD machinery (controller-tools) checks
// declarations only and ignores the type errors of what it skips, so
// without this a package that does not compile could still be generated
// for.
type compiled struct {
	// byDir holds the type errors of each package, by directory.
	byDir map[string]Diagnostics
	// parse holds the syntax errors (and go list errors) of every root.
	parse Diagnostics
	err   error
	// dir is where relative paths in go list's output start.
	dir string
	// fresh holds the generated files of this run: errors in them are
	// errors, where errors in other generated files are those of stale
	// files the run replaces or removes.
	fresh map[string]bool
}

// compile parses (typed: and type-checks) the packages the patterns name,
// with the files of the overlay in place of (or beside) those on disk.
func compile(cfg Config, overlay map[string][]byte, typed bool) *compiled {
	dir, _ := filepath.Abs(cfg.Dir)
	c := &compiled{byDir: map[string]Diagnostics{}, dir: dir, fresh: map[string]bool{}}
	for path := range overlay {
		c.fresh[path] = true
	}
	mode := packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedSyntax | packages.NeedImports
	if typed {
		mode |= packages.NeedTypes
	}
	pkgs, err := packages.Load(&packages.Config{Dir: cfg.Dir, Mode: mode, Overlay: overlay}, cfg.Patterns...)
	if err != nil {
		c.err = err
		return c
	}
	for _, p := range pkgs {
		c.add(p)
		c.imports(p)
	}
	return c
}

// imports reports the imports of a root that the go tool could not
// provide (a module missing from go.mod or go.sum, a package that does not
// exist), at the import in the root's source.
func (c *compiled) imports(root *packages.Package) {
	for path, dep := range root.Imports {
		for _, e := range dep.Errors {
			if e.Kind != packages.ListError || strings.HasPrefix(e.Msg, "#") {
				// "# pkg": the compiler's output for a dependency built from
				// source, judged as a root of its own (or fixed by this run)
				continue
			}
			c.parse.Errorf(importPos(root, path), "import %q: %s", path, firstLine(e.Msg))
		}
	}
}

// importPos is where a root imports a path (its package clause when no
// import spec names it).
func importPos(root *packages.Package, path string) Pos {
	for _, f := range root.Syntax {
		for _, spec := range f.Imports {
			if spec.Path != nil && strings.Trim(spec.Path.Value, "\"`") == path {
				ps := root.Fset.Position(spec.Pos())
				return Pos{File: ps.Filename, Line: ps.Line, Col: ps.Column}
			}
		}
	}
	return packagePos(root)
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.ReplaceAll(s, "\n\t", " "), "\n")
	return line
}

func (c *compiled) add(p *packages.Package) {
	dir := packageDir(p)
	var parse, typed, listed Diagnostics
	for _, e := range p.Errors {
		pos := posFromString(e.Pos)
		if !pos.IsValid() {
			pos = packagePos(p)
		}
		switch e.Kind {
		case packages.ParseError:
			parse.Errorf(pos, "%s", e.Msg)
		case packages.TypeError:
			if generatedFile(pos.File) && !c.fresh[pos.File] {
				typed.Warnf(pos, "%s (a stale generated file; this run replaces it)", e.Msg)
				continue
			}
			if c.fresh[pos.File] {
				typed.Errorf(pos, "the generated code does not compile: %s", e.Msg)
				continue
			}
			typed.Errorf(pos, "%s", e.Msg)
		default:
			listed = append(listed, c.listErrors(pos, e.Msg)...)
		}
	}
	switch {
	case len(parse) > 0:
		// type errors after a syntax error are its echoes
		c.parse.Add(parse)
	case len(typed) > 0:
		// go list's compiler output repeats the type errors
		c.byDir[dir] = typed
	default:
		c.parse.Add(listed)
	}
}

// listErrors turns go list's error text into diagnostics: the compiler's
// "# pkg" output holds one positioned error a line.
func (c *compiled) listErrors(pos Pos, msg string) Diagnostics {
	var ds Diagnostics
	for _, line := range strings.Split(msg, "\n") {
		if line == "" || strings.HasPrefix(line, "# ") {
			continue
		}
		if at, text, ok := c.positioned(line); ok {
			ds.Errorf(at, "%s", text)
			continue
		}
		ds.Errorf(pos, "%s", line)
	}
	return ds
}

// positioned splits "file:line:col: message".
func (c *compiled) positioned(line string) (Pos, string, bool) {
	parts := strings.SplitN(line, ": ", 2)
	if len(parts) != 2 {
		return Pos{}, "", false
	}
	p := posFromString(parts[0])
	if p.Line == 0 {
		return Pos{}, "", false
	}
	if !filepath.IsAbs(p.File) {
		p.File = filepath.Join(c.dir, p.File)
	}
	return p, parts[1], true
}

func packageDir(p *packages.Package) string {
	for _, files := range [][]string{p.GoFiles, p.CompiledGoFiles, p.OtherFiles} {
		if len(files) > 0 {
			return filepath.Dir(files[0])
		}
	}
	return ""
}

// packagePos is where an error about a whole package is reported: the
// package clause of its first file.
func packagePos(p *packages.Package) Pos {
	for i, f := range p.Syntax {
		if f != nil && p.Fset != nil {
			ps := p.Fset.Position(f.Package)
			if ps.Filename == "" && i < len(p.CompiledGoFiles) {
				ps.Filename = p.CompiledGoFiles[i]
			}
			return Pos{File: ps.Filename, Line: ps.Line, Col: ps.Column}
		}
	}
	if dir := packageDir(p); dir != "" {
		return Pos{File: dir}
	}
	return Pos{File: p.PkgPath}
}

// Compile reports the type errors of the model's packages as the compiler
// sees them with the generated Go files (path -> content) in place of
// those on disk: generated code that does not compile beside the user's
// (a clash, a missing method) is an error, and so is a package that does
// not compile at all. A package that refers to what modelgen generates (a
// scheme registering DeepCopyObject) is judged with this run's files, so
// the first run is not refused. Errors inside other generated files are
// warnings: those files are stale, and a full run replaces or removes them.
// Load type-checked the packages as they are on disk; they are checked
// again only when that found errors, or when a generated Go file changes.
func (m *Model) Compile(generated map[string][]byte) Diagnostics {
	if m.compiled == nil || len(m.Packages) == 0 {
		return nil
	}
	var patterns []string
	changed := changedFiles(generated)
	for _, pk := range m.Packages {
		if pk.Dir != "" && (changed || len(m.compiled.byDir[pk.Dir]) > 0) {
			patterns = append(patterns, pk.Dir)
		}
	}
	if len(patterns) == 0 {
		return nil
	}
	cfg := m.cfg
	cfg.Patterns = patterns
	c := compile(cfg, generated, true)
	var diags Diagnostics
	if c.err != nil {
		diags.Errorf(m.Packages[0].Pos(), "type-checking the packages with their generated files: %v", c.err)
		return diags
	}
	diags.Add(c.parse)
	for _, pk := range m.Packages {
		diags.Add(c.byDir[pk.Dir])
	}
	return diags
}

// changedFiles reports a generated file whose content is not on disk yet.
func changedFiles(generated map[string][]byte) bool {
	for path, data := range generated {
		// bounded: the file on disk may be anything, /dev/zero included
		if same, err := fsread.Equal(path, data); err != nil || !same {
			return true
		}
	}
	return false
}

// Pos is where an error about the whole package is reported: the package
// clause of its first file (its directory when no file was parsed).
func (p *Package) Pos() Pos {
	if p.Loaded != nil {
		if pos := clausePos(p.Loaded); pos.IsValid() {
			return pos
		}
	}
	return Pos{File: p.Dir}
}

// clausePos is the package clause of a loaded package's first file.
func clausePos(p *loader.Package) Pos {
	if p.Fset == nil {
		return Pos{}
	}
	for _, f := range p.Syntax {
		if f != nil {
			ps := p.Fset.Position(f.Package)
			return Pos{File: ps.Filename, Line: ps.Line, Col: ps.Column}
		}
	}
	return Pos{}
}
